import type { OutgoingHttpHeaders } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import { ApiError, errorBody, notFound } from '../core/errors.js';
import type { FileRecord } from '../db/schema/index.js';
import type { OpenedDownload } from '../files/owners.js';
import { awaitingScan, isDownloadable } from '../files/stored.js';
import type { AppEnv } from '../http/env.js';
import type { Services } from '../services.js';
import { fileEtag, fileModifiedAt, zipDownload } from './content.js';
import { contentDisposition, decideRequestRange, safeContentType } from './http.js';
import { verifyDownloadToken } from './links.js';
import { zipRange } from './zip.js';
import { said } from '../core/sentences.js';

/**
 * `GET /dl/<token>` (and HEAD): the bytes of one file, or of a zip of files, for any owner, through
 * the raw Node response (about twice the throughput of a web stream), with backpressure.
 *
 * Always `Content-Disposition: attachment` with a sandboxing CSP and `nosniff`, so uploaded
 * content is never rendered on the app's origin. One `Range` (with `If-Range`) gives 206; several
 * ranges are answered with the whole representation. The owner decides what the link serves and
 * what a request records (a transfer: the visit's receipt, counted on its first download and
 * completed once the final byte has been handed to the socket).
 */

interface Representation {
  size: number;
  etag: string;
  lastModified: Date;
  contentType: string;
  fileName: string;
  /** Bytes `start` to `end` inclusive. */
  open(start: number, end: number): Readable;
}

const SECURITY_HEADERS = {
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function downloadRoutes() {
  const app = new Hono<AppEnv>();
  // Hono answers HEAD with the GET handler.
  app.get('/:token', (c) => serveDownload(c, c.var.services));
  return app;
}

/** How long a client is asked to wait for a file's virus scan: scans take seconds. */
const SCAN_RETRY_AFTER_SECONDS = 10;

/**
 * Refuses (503 with Retry-After) while a file to be served waits for its virus scan: nothing is
 * served unscanned when a scanner is configured. A zip waits for every file in it.
 */
function assertScanned(services: Services, files: FileRecord[]): void {
  const waiting = files.filter((f) => awaitingScan(services.config, f));
  if (waiting.length === 0) return;
  throw new ApiError(
    'unavailable',
    waiting.length === 1 && files.length === 1
      ? said({ id: 'api.downloads.fileBeingScanned', defaultMessage: 'This file is being checked for viruses. Try again in a few seconds.' })
      : said({ id: 'api.downloads.filesBeingScanned', defaultMessage: '{count} of these files are being checked for viruses. Try again in a few seconds.', description: 'count: how many files (a number)' }, { count: String(waiting.length) }),
    { reason: 'scan_pending', fileIds: waiting.map((f) => f.id) },
    { 'Retry-After': String(SCAN_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Storage size checks in flight at once for one download. A zip of 10,000 files checked all at once
 * held about 40 MB per download start (10,000 pending stats, or HeadObject requests on S3) and
 * finished no sooner: the disk answers a few at a time anyway.
 */
export const STORED_CHECKS_AT_ONCE = 16;

/** Refuses when storage lost a file's bytes (they were purged or never fully written). */
async function assertStored(services: Services, files: FileRecord[]): Promise<void> {
  const sizes: (number | null)[] = new Array(files.length);
  let next = 0;
  const checkNext = async () => {
    for (let i = next++; i < files.length; i = next++) sizes[i] = await services.storage.size(files[i]!.storageKey);
  };
  await Promise.all(Array.from({ length: Math.min(STORED_CHECKS_AT_ONCE, files.length) }, checkNext));
  const missing = files.filter((f, i) => (sizes[i] ?? -1) < f.sizeBytes);
  if (missing.length > 0) {
    services.log.error({ fileIds: missing.map((f) => f.id) }, 'download: stored bytes missing');
    throw new ApiError('not_found', said({ id: 'api.downloads.fileNoLongerAvailable', defaultMessage: 'The file is no longer available.' }));
  }
}

async function representation(services: Services, { target, encrypted }: OpenedDownload): Promise<Representation> {
  const { storage } = services;
  if (target.kind === 'zip') {
    const zip = zipDownload(target.name, target.files, target.since, storage);
    if (!encrypted) assertScanned(services, zip.files);
    await assertStored(services, zip.files);
    return {
      size: zip.layout.size,
      etag: zip.etag,
      lastModified: zip.lastModified,
      contentType: 'application/zip',
      fileName: zip.name,
      open: (start, end) => zipRange(zip.layout, start, end, { highWaterMark: 256 * 1024 }),
    };
  }
  const f = target.file;
  if (!isDownloadable(f)) throw notFound(said({ id: 'api.downloads.fileNotFound', defaultMessage: 'File not found' }));
  if (!encrypted) assertScanned(services, [f]);
  await assertStored(services, [f]);
  return {
    size: f.sizeBytes,
    etag: fileEtag(f),
    lastModified: fileModifiedAt(f),
    contentType: safeContentType(f.mimeType),
    fileName: f.name,
    open: (start, end) => storage.read(f.storageKey, { start, end }),
  };
}

/**
 * Bytes read ahead of the socket. A storage stream reads its next chunk only once the socket has
 * taken the last one, so every read waits for a drain and every drain for a read; on an event loop
 * with other work (requests, the worker) those waits add up (a file through /dl measured 0.66x a
 * raw Node pipe). One more buffer lets the next read run while the socket drains.
 */
const READ_AHEAD = 256 * 1024;

/** How long a presigned URL works: long enough to start the download, not to pass around. */
const PRESIGNED_TTL_SECONDS = 300;

/**
 * A preview's read inside a page: a `<video>` or `<audio>` playing the file, or a script's bounded Range request
 * (the text preview's first 256 KB, pdf.js's ranges), as the browser's `Sec-Fetch-Dest` says. The page's policy
 * lets it load media and fetch from its own origin only, so these are answered here, never redirected to a bucket.
 */
function inPagePreview(c: Context<AppEnv>): boolean {
  const dest = c.req.header('sec-fetch-dest');
  if (dest === 'video' || dest === 'audio') return true;
  return dest === 'empty' && /^bytes=\d+-\d+$/.test(c.req.header('range') ?? '');
}

/**
 * With S3_PRESIGNED_DOWNLOADS, a whole file (not a zip) is handed off to the bucket once the owner
 * has checked and counted the request: 302 to a presigned GetObject URL carrying the same
 * Content-Disposition and type. The bucket then answers Range requests itself. A preview inside a page is
 * served here instead (inPagePreview).
 */
async function presignedRedirect(services: Services, target: OpenedDownload['target'], rep: Representation, preview: boolean): Promise<Response | null> {
  if (!services.config.S3_PRESIGNED_DOWNLOADS || preview || target.kind !== 'file' || !services.storage.presignedUrl) return null;
  const url = await services.storage.presignedUrl(target.file.storageKey, {
    contentDisposition: contentDisposition(rep.fileName),
    contentType: rep.contentType,
    expiresInSeconds: PRESIGNED_TTL_SECONDS,
  });
  return new Response(null, { status: 302, headers: { Location: url, 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' } });
}

async function serveDownload(c: Context<AppEnv>, services: Services): Promise<Response> {
  const { clock, config, log } = services;
  const now = clock.now();
  const grant = verifyDownloadToken(services, c.req.param('token') ?? '');
  if (!grant) throw new ApiError('not_found', said({ id: 'api.downloads.downloadLinkValid', defaultMessage: 'This download link is not valid.' }));
  if (grant.expiresAt.getTime() <= now.getTime()) {
    throw new ApiError('link_unavailable', said({ id: 'api.downloads.downloadLinkExpiredOpen', defaultMessage: 'This download link has expired; open the transfer page again for a fresh one.' }), { reason: 'expired' });
  }

  // The owner checks itself (ended, revoked, limits, the visit) and says what the link serves.
  const opened = await services.owners.of(grant.ownerKind).openDownload(services, grant);
  const rep = await representation(services, opened);
  const decision = decideRequestRange({ range: c.req.header('range'), ifRange: c.req.header('if-range') }, rep.size, rep);
  if (decision.kind === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${rep.size}`);
    c.header('Cache-Control', 'private, no-store');
    return c.json(errorBody(config.PUBLIC_URL, 'range_not_satisfiable', `The range is outside the ${rep.size} bytes of this download.`, { size: rep.size }), 416);
  }
  const partial = decision.kind === 'partial';
  const start = partial ? decision.start : 0;
  const end = partial ? decision.end : rep.size - 1;
  const headers: OutgoingHttpHeaders = {
    ...SECURITY_HEADERS,
    'Content-Type': rep.contentType,
    'Content-Length': String(rep.size === 0 ? 0 : end - start + 1),
    'Content-Disposition': contentDisposition(rep.fileName),
    'Accept-Ranges': 'bytes',
    ETag: rep.etag,
    'Last-Modified': rep.lastModified.toUTCString(),
    'X-Request-Id': c.var.requestId,
    ...(partial ? { 'Content-Range': `bytes ${start}-${end}/${rep.size}` } : {}),
  };
  const status = partial ? 206 : 200;
  if (c.req.method === 'HEAD') {
    // Hono rebuilds HEAD responses, so this one goes the ordinary way (and without a receipt).
    return new Response(null, { status, headers: headers as Record<string, string> });
  }

  const finished = await opened.begin();
  const presigned = await presignedRedirect(services, opened.target, rep, inPagePreview(c));
  if (presigned) return presigned;

  const res = c.env.outgoing;
  res.writeHead(status, headers);
  const source = rep.size === 0 ? Readable.from([]) : rep.open(start, end);
  try {
    // pipeline destroys the source when the client goes away, and waits for 'finish': every byte handed to the socket.
    await pipeline(source, new PassThrough({ highWaterMark: READ_AHEAD }), res);
    if (finished && end === rep.size - 1) await finished();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_STREAM_PREMATURE_CLOSE') log.warn({ err, ownerId: grant.ownerId, fileId: grant.fileId }, 'download failed');
    if (!res.destroyed) res.destroy();
  }
  return RESPONSE_ALREADY_SENT;
}
