import { Server, TUS_RESUMABLE } from '@tus/server';
import { eq } from 'drizzle-orm';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { errorCodeForStatus, type ErrorBody } from '../../contract/errors.js';
import { transferFiles, transfers } from '../db/schema.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, errorBody } from '../http/errors.js';
import type { Services } from '../services.js';
import { CrcDataStore, tusRefusal } from './crc.js';
import { verifyUploadToken } from './tokens.js';

/**
 * The resumable-upload (tus 1.0) endpoint at `/files/`: creation, creation-with-upload, termination
 * and expiration. Every request except the CORS preflight carries `x-service-upload-token`, which
 * must be valid now and bound to the file it touches; upload ids are file ids. The upload must be
 * exactly the registered size. Completion records the CRC and may emit `transfer.ready`.
 */

export const TUS_PATH = '/files';
export const UPLOAD_TOKEN_HEADER = 'x-service-upload-token';

const COLLECTION_PATH = /^\/files\/?$/;
const UPLOAD_PATH = /^\/files\/([A-Za-z0-9_-]{1,100})$/;

const CORS_METHODS = 'POST, HEAD, PATCH, DELETE, OPTIONS';
const CORS_ALLOWED_HEADERS = [
  'Tus-Resumable',
  'Upload-Length',
  'Upload-Offset',
  'Upload-Metadata',
  'Upload-Defer-Length',
  'Upload-Concat',
  'Content-Type',
  'X-HTTP-Method-Override',
  'X-Requested-With',
  UPLOAD_TOKEN_HEADER,
];
const CORS_EXPOSED_HEADERS = [
  'Location',
  'Upload-Offset',
  'Upload-Length',
  'Tus-Version',
  'Tus-Resumable',
  'Tus-Max-Size',
  'Tus-Extension',
  'Upload-Metadata',
  'Upload-Expires',
];

export const publicOrigin = (publicUrl: string) => new URL(publicUrl).origin;

/**
 * CORS for browser uploads: only the service's own origin (PUBLIC_URL) is allowed, with exactly the
 * tus request headers and the upload token. Whatever a handler (or @tus/server) set is replaced,
 * so the policy lives in one place.
 */
export function uploadCors(publicUrl: string): MiddlewareHandler<AppEnv> {
  const allowed = publicOrigin(publicUrl);
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    for (const name of [...headers.keys()]) if (name.startsWith('access-control-')) headers.delete(name);
    headers.append('Vary', 'Origin');
    if (c.req.header('origin') !== allowed) return;
    headers.set('Access-Control-Allow-Origin', allowed);
    headers.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    if (c.req.method === 'OPTIONS') {
      headers.set('Access-Control-Allow-Methods', CORS_METHODS);
      headers.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
      headers.set('Access-Control-Max-Age', '86400');
    }
  };
}

export interface UploadFile {
  id: string;
  workspaceId: string;
  transferId: string;
  sizeBytes: number;
  state: (typeof transferFiles.$inferSelect)['state'];
  source: (typeof transferFiles.$inferSelect)['source'];
  storageKey: string;
  transferStatus: (typeof transfers.$inferSelect)['status'];
  transferExpiresAt: Date;
  transferPurgedAt: Date | null;
}

export async function loadUploadFile(services: Pick<Services, 'db'>, fileId: string): Promise<UploadFile | null> {
  const [row] = await services.db
    .select({
      id: transferFiles.id,
      workspaceId: transferFiles.workspaceId,
      transferId: transferFiles.transferId,
      sizeBytes: transferFiles.sizeBytes,
      state: transferFiles.state,
      source: transferFiles.source,
      storageKey: transferFiles.storageKey,
      transferStatus: transfers.status,
      transferExpiresAt: transfers.expiresAt,
      transferPurgedAt: transfers.purgedAt,
    })
    .from(transferFiles)
    .innerJoin(transfers, eq(transfers.id, transferFiles.transferId))
    .where(eq(transferFiles.id, fileId))
    .limit(1);
  return row ?? null;
}

/** Whether bytes can still be sent for this file (the upload token is checked separately). */
export const isUploadable = (file: UploadFile) =>
  file.source === 'upload' && file.storageKey === file.id && file.transferStatus === 'active' && file.transferPurgedAt === null;

export const unauthorized = () =>
  new ApiError('unauthorized', `A valid upload token for this file is required in the ${UPLOAD_TOKEN_HEADER} header.`);

/**
 * The file an upload token opens right now. `urlId` is the upload id from the URL (null on
 * creation): a token for another file is refused exactly like a missing or expired one.
 */
export async function authorizeUpload(services: Services, token: string | undefined, urlId: string | null): Promise<UploadFile> {
  const grant = await verifyUploadToken(services.db, token, services.clock.now());
  if (!grant || (urlId !== null && grant.fileId !== urlId)) throw unauthorized();
  const file = await loadUploadFile(services, grant.fileId);
  if (!file || file.workspaceId !== grant.workspaceId) throw unauthorized();
  if (!isUploadable(file)) throw new ApiError('not_found', 'This upload is no longer available.');
  return file;
}

const headerError = (header: string, message: string) =>
  new ApiError('invalid_request', `Invalid header: ${header}: ${message}`, { location: 'header', fields: [{ path: header, message }] });

const PATCH_CONTENT_TYPE = 'application/offset+octet-stream';

/** tus 1.0 on PATCH: the body type is 415 when wrong, `Upload-Offset` 400 when missing or not a number. */
function assertPatchHeaders(c: Context<AppEnv>): void {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== PATCH_CONTENT_TYPE) {
    throw new ApiError('unsupported_media_type', `Content-Type must be ${PATCH_CONTENT_TYPE}`, {
      location: 'header',
      fields: [{ path: 'Content-Type', message: `must be ${PATCH_CONTENT_TYPE}` }],
    });
  }
  const offset = c.req.header('upload-offset');
  if (offset === undefined || !/^[0-9]{1,16}$/.test(offset)) {
    throw headerError('Upload-Offset', offset === undefined ? 'required' : 'must be a byte offset in decimal digits');
  }
}

/** Gives an error from @tus/server the Error shape (our own refusals already have it). */
async function toErrorShape(res: Response, method: string, publicUrl: string): Promise<Response> {
  if (res.status < 400) return res;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json; charset=UTF-8');
  if (method === 'HEAD') return new Response(null, { status: res.status, headers });
  const text = await res.text();
  let body: ErrorBody | null = null;
  try {
    const parsed = JSON.parse(text) as Partial<ErrorBody> | null;
    if (parsed && typeof parsed.error?.code === 'string') body = parsed as ErrorBody;
  } catch {
    // plain text from @tus/server
  }
  if (!body) {
    const code = errorCodeForStatus(res.status);
    const message = code === 'internal_error' ? 'Something went wrong on our side' : text.trim() || 'The upload request was refused';
    body = errorBody(publicUrl, code, message, res.status === 409 ? { reason: 'offset_mismatch' } : {});
  }
  return new Response(JSON.stringify(body), { status: res.status, headers });
}

/** Mounts the tus endpoint at `/files/` (before the SPA fallback, which would answer GET with HTML). */
export function mountTus(app: Hono<AppEnv>, services: Services): void {
  const { config, log } = services;
  const store = new CrcDataStore(services.storage.tusStore(), services);
  const origin = publicOrigin(config.PUBLIC_URL);
  // PUBLIC_URL may carry a path prefix that a proxy strips; the Location header keeps it, and stays
  // relative so that the client resolves it against the host it used.
  const basePath = new URL(config.PUBLIC_URL).pathname.replace(/\/+$/, '');
  /** The authorized file of each request, set before @tus/server sees the request. */
  const authorized = new WeakMap<object, UploadFile>();

  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    respectForwardedHeaders: config.TRUST_PROXY,
    relativeLocation: true,
    generateUrl: (_req, { path, id }) => `${basePath}${path}/${id}`,
    allowedOrigins: (o) => o === origin,
    disableTerminationForFinishedUploads: true,
    namingFunction: (req) => {
      const file = authorized.get(req);
      if (!file) throw tusRefusal(config.PUBLIC_URL, 'unauthorized', unauthorized().message);
      return file.id;
    },
    onIncomingRequest: async (req, uploadId) => {
      // Authorization ran in the route; this makes sure tus touches exactly the file it opened.
      if (authorized.get(req)?.id !== uploadId) throw tusRefusal(config.PUBLIC_URL, 'unauthorized', unauthorized().message);
    },
    onUploadFinish: async (_req, upload) => {
      await store.complete(upload.id);
      return {};
    },
    onResponseError: (_req, err) => {
      if (!('status_code' in err) || err.status_code >= 500) log.warn({ err }, 'upload request failed');
      return undefined;
    },
  });

  const handle = async (c: Context<AppEnv>) => {
    const req = c.req.raw;
    // Hono routes HEAD as GET; the request keeps its own method.
    const method = req.method;
    const uploadId = UPLOAD_PATH.exec(c.req.path)?.[1] ?? null;
    if (uploadId === null && !COLLECTION_PATH.test(c.req.path)) throw new ApiError('not_found', 'No such upload');
    if (method === 'OPTIONS') return tus.handleWeb(req);

    const allowed = uploadId === null ? ['POST'] : ['HEAD', 'PATCH', 'DELETE'];
    if (!allowed.includes(method)) {
      throw new ApiError('method_not_allowed', `${method} is not allowed here`, {}, { Allow: [...allowed, 'OPTIONS'].join(', ') });
    }
    // The protocol version frames every other header, so it is checked first (as tusd does).
    if (c.req.header('tus-resumable') !== TUS_RESUMABLE) {
      throw new ApiError('precondition_failed', `Tus-Resumable must be ${TUS_RESUMABLE}`, { location: 'header', fields: [{ path: 'Tus-Resumable', message: `must be ${TUS_RESUMABLE}` }] }, { 'Tus-Version': TUS_RESUMABLE });
    }

    const file = await authorizeUpload(services, c.req.header(UPLOAD_TOKEN_HEADER), uploadId);
    if (method === 'PATCH') assertPatchHeaders(c);
    if (file.state !== 'uploading' && !(method === 'HEAD' && file.state === 'complete')) {
      throw new ApiError('conflict', 'This file has finished uploading.', { reason: file.state === 'complete' ? 'upload_complete' : `upload_${file.state}` });
    }
    if (method === 'POST') {
      if (c.req.header('upload-concat') !== undefined) throw headerError('Upload-Concat', 'concatenation is not supported');
      if (c.req.header('upload-defer-length') !== undefined) {
        throw headerError('Upload-Defer-Length', `not supported; send Upload-Length: ${file.sizeBytes}`);
      }
      if (c.req.header('upload-length') !== String(file.sizeBytes)) {
        throw headerError('Upload-Length', `must be ${file.sizeBytes}, the registered size of this file`);
      }
      if (await store.exists(file.id)) {
        throw new ApiError('conflict', 'An upload for this file already exists; resume it with HEAD and PATCH on its URL.', {
          reason: 'upload_exists',
        });
      }
    }

    authorized.set(req, file);
    const res = await toErrorShape(await tus.handleWeb(req), method, config.PUBLIC_URL);

    if (res.ok) {
      const offset = Number(res.headers.get('upload-offset') ?? (method === 'POST' ? 0 : NaN));
      if (method === 'HEAD' && offset === file.sizeBytes && file.state === 'uploading') {
        // Every byte is stored but the file was never marked complete (a crash or a failed write
        // after the last byte): the client now considers the upload done, so finish it here.
        await store.complete(file.id).catch((err: unknown) => log.error({ err, fileId: file.id }, 'could not complete upload'));
      }
      // Expiration extension: an unfinished upload lives as long as its transfer.
      if (method !== 'DELETE' && offset < file.sizeBytes) res.headers.set('Upload-Expires', file.transferExpiresAt.toUTCString());
    }
    return res;
  };

  const cors = uploadCors(config.PUBLIC_URL);
  const tusResumable: MiddlewareHandler<AppEnv> = async (c, next) => {
    await next();
    // Every tus response but the preflight names the protocol version, refusals included.
    if (c.req.method !== 'OPTIONS' && !c.res.headers.has('Tus-Resumable')) c.res.headers.set('Tus-Resumable', TUS_RESUMABLE);
  };
  // In Hono, `/files/*` also matches `/files` itself.
  app.use(`${TUS_PATH}/*`, cors, tusResumable);
  app.all(`${TUS_PATH}/*`, handle);
}
