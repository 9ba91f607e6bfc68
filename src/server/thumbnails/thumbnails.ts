import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import { and, eq, isNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { FILE_OWNER_KINDS, files, type FileOwnerKind } from '../db/schema/index.js';
import { purposeKey, signToken, verifyToken } from '../downloads/signing.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, notFound } from '../core/errors.js';
import type { Services } from '../services.js';
import type { FileStorage } from '../storage/storage.js';
import { bareType, mediaKind, type MediaKind } from '../../contract/media-types.js';
import { claimLeasedFiles, runDueOnce, startClaimLoop, type ClaimedWork, type ClaimLoop } from '../jobs/claim-loop.js';
import { withLoopbackBytes } from './loopback-bytes.js';
import { ffmpegCommand, renderMediaPreview } from './media-previews.js';
import { said } from '../core/sentences.js';

/**
 * Previews: the worker turns each complete file it can show into a WebP of at most 480 × 480 pixels, stored beside
 * the original. An image is turned upright and stripped of its metadata (EXIF, GPS, ICC) by sharp; a video gives a
 * poster frame, an audio file a waveform and a PDF its first page (media-previews.ts), each made by a tool in a
 * process of its own under time and memory limits. The pages show them through short-lived signed URLs
 * (`/thumb/<token>`), which follow the owner's availability (a transfer's expiry, revocation, limit) but are never
 * downloads: no receipt, no count. A file that cannot be previewed keeps its type icon; its download is untouched.
 */

export const THUMBNAIL_MAX_PX = 480;
/** Formats sharp decodes safely from its prebuilt libvips; SVG (scripts, external references) is left out. */
const PREVIEWABLE_IMAGES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'];
/** A decompression bomb stops here: 50 megapixels is more than any camera's photo. */
const MAX_INPUT_PIXELS = 50_000_000;
/** A preview takes seconds: past this a worker that died holding one has its file taken over. */
const LEASE_SECONDS = 180;
/** A file whose preview kills its worker this many times is given up. */
const MAX_ATTEMPTS = 3;
const POLL_MS = 2000;
const URL_TTL_MS = 60 * 60_000;

export const thumbnailKey = (fileKey: string) => `${fileKey}_thumb`;

/** What the worker makes a preview of: an image sharp reads, or media (by the list the pages use); null for the rest. */
export function previewSource(mimeType: string, name: string): 'image' | MediaKind | null {
  if (PREVIEWABLE_IMAGES.includes(bareType(mimeType))) return 'image';
  return mediaKind(mimeType, name);
}

const toWebp = () => sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
  .rotate()
  .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
  .webp({ quality: 78 });

/**
 * Reads the original from storage (as a stream, or by ranges for media) and stores its preview at `targetKey`;
 * throws for what cannot be previewed. Returns the preview's size.
 */
export async function makeThumbnail(storage: FileStorage, source: { key: string; sizeBytes: number; kind: 'image' | MediaKind }, targetKey: string): Promise<number> {
  if (source.kind === 'image') {
    const resize = toWebp();
    const original = storage.read(source.key);
    original.on('error', (err) => resize.destroy(err));
    return storage.write(targetKey, original.pipe(resize));
  }
  const kind = source.kind;
  // A file named `.pdf` that does not start like one (its header may follow up to 1 KB of anything) is no PDF: no
  // renderer is started for it. What is left after this check, the renderer itself refuses.
  if (kind === 'pdf' && !(await startsWith(storage, source.key, '%PDF-', 1024))) throw new Error('not a PDF');
  const png = await withLoopbackBytes(storage, source.key, source.sizeBytes, (url) => renderMediaPreview(kind, url, source.sizeBytes, THUMBNAIL_MAX_PX));
  return storage.write(targetKey, Readable.from([png]).pipe(toWebp()));
}

/** Whether `marker` is in the first `within` bytes of the stored file. */
async function startsWith(storage: FileStorage, key: string, marker: string, within: number): Promise<boolean> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key, { start: 0, end: within - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).includes(marker, 0, 'latin1');
}

type ThumbnailServices = Pick<Services, 'db' | 'storage' | 'log' | 'owners' | 'clock'>;

/** Claims up to `limit` complete files not tried yet (nor held by another worker), each under a lease. */
export async function claimDueThumbnails(services: Pick<Services, 'db' | 'clock'>, limit: number): Promise<string[]> {
  const now = services.clock.now();
  const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000);
  return claimLeasedFiles(services.db, {
    lease: 'thumbnail_lease_until',
    attempts: 'thumbnail_attempts',
    due: sql`thumbnail_state IS NULL AND state = 'complete'`,
    order: sql`completed_at, seq`,
    now,
    until: leaseUntil,
    limit,
  });
}

/**
 * Makes one claimed file's preview, or marks it as having none: a file of an owner that ended, or end-to-end
 * encrypted (whose sending browser makes its own, sealed), a kind nothing previews, or one the tools refuse. Never throws.
 */
export async function runThumbnail(services: ThumbnailServices, fileId: string): Promise<void> {
  const [file] = await services.db
    .select({ id: files.id, key: files.storageKey, sizeBytes: files.sizeBytes, name: files.name, mimeType: files.mimeType, ownerKind: files.ownerKind, ownerId: files.ownerId, attempts: files.thumbnailAttempts })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.state, 'complete'), isNull(files.thumbnailState)));
  if (!file) return;
  let state: 'ready' | 'failed' = 'failed';
  try {
    const kind = previewSource(file.mimeType, file.name);
    const owner = kind && file.attempts <= MAX_ATTEMPTS ? await services.owners.of(file.ownerKind).status(services.db, file.ownerId) : null;
    if (kind && owner?.live && !owner.encrypted) {
      const started = Date.now();
      await makeThumbnail(services.storage, { key: file.key, sizeBytes: file.sizeBytes, kind }, thumbnailKey(file.key));
      state = 'ready';
      services.log.info({ fileId, kind, ms: Date.now() - started }, 'preview made');
    }
  } catch (err) {
    services.log.info({ fileId, reason: err instanceof Error ? err.message.slice(0, 300) : 'unknown' }, 'no preview for this file');
  }
  await services.db
    .update(files)
    .set({ thumbnailState: state, thumbnailKey: state === 'ready' ? thumbnailKey(file.key) : null, thumbnailLeaseUntil: null })
    .where(and(eq(files.id, file.id), isNull(files.thumbnailState)))
    .catch((err: unknown) => services.log.error({ err, fileId }, 'could not record a preview'));
}

const previewing = (services: ThumbnailServices): ClaimedWork => ({ claim: (limit) => claimDueThumbnails(services, limit), run: (id) => runThumbnail(services, id) });

/** The previews loop of a worker: one file at a time (a poster is a decoder's work, and the downloads come first). */
export function startThumbnailer(services: ThumbnailServices): ClaimLoop {
  services.log.info({ ffmpeg: ffmpegCommand() }, 'previews: posters and waveforms by this ffmpeg');
  return startClaimLoop(services, { name: 'previews', concurrency: 1, pollMs: POLL_MS, ...previewing(services) });
}

/** Makes every preview due now, to the last: for tests and tools. Returns how many files were tried. */
export async function makeDueThumbnails(services: ThumbnailServices): Promise<number> {
  const work = previewing(services);
  let tried = 0;
  for (;;) {
    const claimed = await runDueOnce(work, 8);
    tried += claimed;
    if (claimed === 0) return tried;
  }
}

type LinkServices = Pick<Services, 'config' | 'cursorKey' | 'clock'>;
const linkKey = (services: LinkServices) => purposeKey(services.cursorKey, 'thumbnails');

/**
 * Signed preview URLs for the files that have one, valid an hour (never past the owner's end), on `origin`: PUBLIC_URL,
 * or the workspace's own domain its visitor is on (the page's CSP and the previews' CORP take only its own origin).
 * `byManager` signs them for the workspace's own pages, which the rules for visitors (a download limit) do not hold back.
 */
export function thumbnailUrls(
  services: LinkServices,
  owner: { kind: FileOwnerKind; id: string; expiresAt: Date; byManager?: boolean },
  withPreviews: { id: string; thumbnailState: string | null }[],
  origin: string = services.config.PUBLIC_URL,
): Map<string, string> {
  const expiresAt = Math.min(services.clock.now().getTime() + URL_TTL_MS, owner.expiresAt.getTime());
  const urls = new Map<string, string>();
  for (const f of withPreviews) {
    if (f.thumbnailState !== 'ready') continue;
    // `k` is left out for transfers, as in download links.
    const claims = { ...(owner.kind === 'transfer' ? {} : { k: owner.kind }), t: owner.id, f: f.id, e: expiresAt, ...(owner.byManager ? { m: 1 } : {}) };
    urls.set(f.id, `${origin}/thumb/${signToken(linkKey(services), claims)}`);
  }
  return urls;
}

async function serveThumbnail(c: Context<AppEnv>, services: Services): Promise<Response> {
  const now = services.clock.now();
  const p = verifyToken(linkKey(services), c.req.param('token')) as { k?: unknown; t?: unknown; f?: unknown; e?: unknown; m?: unknown } | null;
  const kind = p?.k ?? 'transfer';
  if (!p || !(FILE_OWNER_KINDS as readonly unknown[]).includes(kind) || typeof p.t !== 'string' || typeof p.f !== 'string' || typeof p.e !== 'number') throw notFound(said({ id: 'api.thumbnails.previewNotFound', defaultMessage: 'Preview not found' }));
  if (p.e <= now.getTime()) throw new ApiError('link_unavailable', said({ id: 'api.thumbnails.previewLinkExpiredOpen', defaultMessage: 'This preview link has expired; open the page again.' }), { reason: 'expired' });
  const ownerKind = kind as FileOwnerKind;
  const [row] = await services.db
    .select({ key: files.thumbnailKey })
    .from(files)
    .where(and(eq(files.id, p.f), eq(files.ownerKind, ownerKind), eq(files.ownerId, p.t), eq(files.thumbnailState, 'ready')));
  if (!row?.key) throw notFound(said({ id: 'api.thumbnails.previewNotFound', defaultMessage: 'Preview not found' }));
  // The owner's own rules, as for downloads; a preview is never a download, so nothing is counted.
  await services.owners.of(ownerKind).assertViewable(services, p.t, p.f, p.m === 1);
  const size = await services.storage.size(row.key);
  if (size === null) throw notFound(said({ id: 'api.thumbnails.previewNotFound', defaultMessage: 'Preview not found' }));
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
