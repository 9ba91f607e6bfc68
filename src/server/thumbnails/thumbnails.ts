import { pipeline } from 'node:stream/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { transferFiles, transfers } from '../db/schema.js';
import { assertAvailable, linkUnavailable } from '../downloads/content.js';
import { purposeKey, signToken, verifyToken } from '../downloads/signing.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Services } from '../services.js';
import type { FileStorage } from '../storage/storage.js';
import { isWorkspaceDisabled } from '../workspaces/operator.js';

/**
 * Image previews: the worker turns each complete image into a WebP of at most 480 × 480 pixels,
 * turned upright and stripped of its metadata (EXIF, GPS, ICC), stored beside the original. The
 * recipient page shows them through short-lived signed URLs (`/thumb/<token>`), which follow the
 * transfer's availability but are never downloads: no receipt, no count.
 */

export const THUMBNAIL_MAX_PX = 480;
/** Formats sharp decodes safely from its prebuilt libvips; SVG (scripts, external references) is left out. */
const PREVIEWABLE = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'];
/** A decompression bomb stops here: 50 megapixels is more than any camera's photo. */
const MAX_INPUT_PIXELS = 50_000_000;
const BATCH = 8;
const URL_TTL_MS = 60 * 60_000;

export const thumbnailKey = (fileKey: string) => `${fileKey}_thumb`;

/** Reads the original from storage as a stream and stores the preview; throws for what cannot be read as an image. */
export async function makeThumbnail(storage: FileStorage, sourceKey: string, targetKey: string): Promise<number> {
  const resize = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 78 });
  const source = storage.read(sourceKey);
  source.on('error', (err) => resize.destroy(err));
  return storage.write(targetKey, source.pipe(resize));
}

type ThumbnailServices = Pick<Services, 'db' | 'storage' | 'log'>;

/**
 * Makes the previews that are due, a batch at a time. Rows are claimed with FOR UPDATE SKIP
 * LOCKED, so any number of workers (and the nudge after an upload) share the queue without
 * doing a file twice. Files of transfers that ended are marked failed, not read.
 */
export async function makeDueThumbnails(services: ThumbnailServices): Promise<number> {
  let made = 0;
  for (;;) {
    const done = await services.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: transferFiles.id, key: transferFiles.storageKey, mimeType: transferFiles.mimeType, status: transfers.status, purgedAt: transfers.purgedAt, e2ee: transfers.e2ee })
        .from(transferFiles)
        .innerJoin(transfers, eq(transfers.id, transferFiles.transferId))
        .where(and(isNull(transferFiles.thumbnailState), eq(transferFiles.state, 'complete'), sql`${transferFiles.mimeType} like 'image/%'`))
        .orderBy(asc(transferFiles.completedAt))
        .limit(BATCH)
        .for('update', { of: transferFiles, skipLocked: true });
      for (const file of due) {
        const usable = file.status === 'active' && file.purgedAt === null && !file.e2ee && PREVIEWABLE.includes(file.mimeType.toLowerCase());
        let state: 'ready' | 'failed' = 'failed';
        if (usable) {
          try {
            await makeThumbnail(services.storage, file.key, thumbnailKey(file.key));
            state = 'ready';
          } catch (err) {
            services.log.info({ fileId: file.id, reason: err instanceof Error ? err.message.slice(0, 200) : 'unknown' }, 'no preview for this image');
          }
        }
        await tx
          .update(transferFiles)
          .set({ thumbnailState: state, thumbnailKey: state === 'ready' ? thumbnailKey(file.key) : null })
          .where(eq(transferFiles.id, file.id));
      }
      return due.length;
    });
    made += done;
    if (done < BATCH) return made;
  }
}

/** Deletes the previews of these files (their transfer's files are being deleted). */
export async function deleteThumbnails(services: ThumbnailServices, transferId: string): Promise<void> {
  const rows = await services.db
    .select({ key: transferFiles.thumbnailKey })
    .from(transferFiles)
    .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.thumbnailState, 'ready')));
  for (const { key } of rows) {
    if (key) await services.storage.delete(key).catch((err) => services.log.error({ err, transferId }, 'could not delete a preview'));
  }
}

type LinkServices = Pick<Services, 'config' | 'cursorKey' | 'clock'>;
const linkKey = (services: LinkServices) => purposeKey(services.cursorKey, 'thumbnails');

/** Signed preview URLs for the files that have one, valid an hour (never past the transfer's expiry). */
export function thumbnailUrls(services: LinkServices, t: { id: string; expiresAt: Date }, files: { id: string; thumbnailState: string | null }[]): Map<string, string> {
  const expiresAt = Math.min(services.clock.now().getTime() + URL_TTL_MS, t.expiresAt.getTime());
  const urls = new Map<string, string>();
  for (const f of files) {
    if (f.thumbnailState !== 'ready') continue;
    urls.set(f.id, `${services.config.PUBLIC_URL}/thumb/${signToken(linkKey(services), { t: t.id, f: f.id, e: expiresAt })}`);
  }
  return urls;
}

async function serveThumbnail(c: Context<AppEnv>, services: Services): Promise<Response> {
  const now = services.clock.now();
  const p = verifyToken(linkKey(services), c.req.param('token')) as { t?: unknown; f?: unknown; e?: unknown } | null;
  if (!p || typeof p.t !== 'string' || typeof p.f !== 'string' || typeof p.e !== 'number') throw notFound('Preview');
  if (p.e <= now.getTime()) throw new ApiError('link_unavailable', 'This preview link has expired; open the transfer page again.', { reason: 'expired' });
  const [row] = await services.db
    .select({ t: transfers, key: transferFiles.thumbnailKey })
    .from(transferFiles)
    .innerJoin(transfers, eq(transfers.id, transferFiles.transferId))
    .where(and(eq(transferFiles.id, p.f), eq(transferFiles.transferId, p.t), inArray(transferFiles.thumbnailState, ['ready'])));
  if (!row?.key) throw notFound('Preview');
  if (await isWorkspaceDisabled(services.db, row.t.workspaceId)) throw linkUnavailable('suspended');
  // The transfer's own rules, as for downloads; a preview is never a download, so nothing is counted.
  assertAvailable(row.t, now, { countLimit: true });
  const size = await services.storage.size(row.key);
  if (size === null) throw notFound('Preview');
  const maxAge = Math.max(0, Math.floor((p.e - now.getTime()) / 1000));
  const res = c.env.outgoing;
  res.writeHead(200, {
    'Content-Type': 'image/webp',
    'Content-Length': String(size),
    'Cache-Control': `private, max-age=${maxAge}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'",
  });
  if (c.req.method === 'HEAD') {
    res.end();
    return RESPONSE_ALREADY_SENT;
  }
  try {
    await pipeline(services.storage.read(row.key), res);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') services.log.warn({ err, fileId: p.f }, 'preview failed');
    if (!res.destroyed) res.destroy();
  }
  return RESPONSE_ALREADY_SENT;
}

/** `GET /thumb/<token>` (and HEAD). */
export function thumbnailRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.on(['GET', 'HEAD'], '/:token', (c) => serveThumbnail(c, services));
  return app;
}
