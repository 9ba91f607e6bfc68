import { pipeline } from 'node:stream/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { FILE_OWNER_KINDS, files, type FileOwnerKind } from '../db/schema/index.js';
import { purposeKey, signToken, verifyToken } from '../downloads/signing.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Services } from '../services.js';
import type { FileStorage } from '../storage/storage.js';

/**
 * Image previews: the worker turns each complete image into a WebP of at most 480 × 480 pixels,
 * turned upright and stripped of its metadata (EXIF, GPS, ICC), stored beside the original. The
 * recipient page shows them through short-lived signed URLs (`/thumb/<token>`), which follow the
 * owner's availability (a transfer's expiry, revocation, limit) but are never downloads: no
 * receipt, no count.
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

type ThumbnailServices = Pick<Services, 'db' | 'storage' | 'log' | 'owners'>;

/**
 * Makes the previews that are due, a batch at a time. Rows are claimed with FOR UPDATE SKIP
 * LOCKED, so any number of workers (and the nudge after an upload) share the queue without
 * doing a file twice. Files whose owner ended, or is end-to-end encrypted, are marked failed, not read.
 */
export async function makeDueThumbnails(services: ThumbnailServices): Promise<number> {
  let made = 0;
  for (;;) {
    const done = await services.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: files.id, key: files.storageKey, mimeType: files.mimeType, ownerKind: files.ownerKind, ownerId: files.ownerId })
        .from(files)
        .where(and(isNull(files.thumbnailState), eq(files.state, 'complete'), sql`${files.mimeType} like 'image/%'`))
        .orderBy(asc(files.completedAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      for (const file of due) {
        const owner = await services.owners.of(file.ownerKind).status(tx, file.ownerId);
        const usable = owner !== null && owner.live && !owner.encrypted && PREVIEWABLE.includes(file.mimeType.toLowerCase());
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
          .update(files)
          .set({ thumbnailState: state, thumbnailKey: state === 'ready' ? thumbnailKey(file.key) : null })
          .where(eq(files.id, file.id));
      }
      return due.length;
    });
    made += done;
    if (done < BATCH) return made;
  }
}

type LinkServices = Pick<Services, 'config' | 'cursorKey' | 'clock'>;
const linkKey = (services: LinkServices) => purposeKey(services.cursorKey, 'thumbnails');

/**
 * Signed preview URLs for the files that have one, valid an hour (never past the owner's end), on `origin`: PUBLIC_URL,
 * or the workspace's own domain its visitor is on (the page's CSP and the previews' CORP take only its own origin).
 */
export function thumbnailUrls(
  services: LinkServices,
  owner: { kind: FileOwnerKind; id: string; expiresAt: Date },
  withPreviews: { id: string; thumbnailState: string | null }[],
  origin: string = services.config.PUBLIC_URL,
): Map<string, string> {
  const expiresAt = Math.min(services.clock.now().getTime() + URL_TTL_MS, owner.expiresAt.getTime());
  const urls = new Map<string, string>();
  for (const f of withPreviews) {
    if (f.thumbnailState !== 'ready') continue;
    // `k` is left out for transfers, as in download links.
    const claims = { ...(owner.kind === 'transfer' ? {} : { k: owner.kind }), t: owner.id, f: f.id, e: expiresAt };
    urls.set(f.id, `${origin}/thumb/${signToken(linkKey(services), claims)}`);
  }
  return urls;
}

async function serveThumbnail(c: Context<AppEnv>, services: Services): Promise<Response> {
  const now = services.clock.now();
  const p = verifyToken(linkKey(services), c.req.param('token')) as { k?: unknown; t?: unknown; f?: unknown; e?: unknown } | null;
  const kind = p?.k ?? 'transfer';
  if (!p || !(FILE_OWNER_KINDS as readonly unknown[]).includes(kind) || typeof p.t !== 'string' || typeof p.f !== 'string' || typeof p.e !== 'number') throw notFound('Preview');
  if (p.e <= now.getTime()) throw new ApiError('link_unavailable', 'This preview link has expired; open the page again.', { reason: 'expired' });
  const ownerKind = kind as FileOwnerKind;
  const [row] = await services.db
    .select({ key: files.thumbnailKey })
    .from(files)
    .where(and(eq(files.id, p.f), eq(files.ownerKind, ownerKind), eq(files.ownerId, p.t), eq(files.thumbnailState, 'ready')));
  if (!row?.key) throw notFound('Preview');
  // The owner's own rules, as for downloads; a preview is never a download, so nothing is counted.
  await services.owners.of(ownerKind).assertViewable(services, p.t);
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
export function thumbnailRoutes() {
  const app = new Hono<AppEnv>();
  app.on(['GET', 'HEAD'], '/:token', (c) => serveThumbnail(c, c.var.services));
  return app;
}
