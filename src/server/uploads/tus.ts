import { Server, TUS_RESUMABLE, type Locker } from '@tus/server';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { FileRecord } from '../db/schema/index.js';
import type { AppEnv } from '../http/env.js';
import type { Services } from '../services.js';
import { CrcDataStore } from './crc.js';
import { refuse, tusRefusal } from './refusals.js';
import { UPLOAD_TOKEN_HEADER, verifyUploadToken } from './tokens.js';
import { said } from '../core/sentences.js';

export { UPLOAD_TOKEN_HEADER };

/**
 * The resumable-upload (tus 1.0) endpoint at `/files/`: creation, creation-with-upload, termination
 * and expiration. Every request except the CORS preflight carries `x-service-upload-token`, which
 * must be valid now and bound to the file it touches; upload ids are file ids. The upload must be
 * exactly the registered size. Completion records the CRC and tells the file's owner. Every
 * refusal, ours or @tus/server's, is an entry of the table in `refusals.ts`.
 */

export const TUS_PATH = '/files';

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
  ownerKind: FileRecord['ownerKind'];
  ownerId: string;
  sizeBytes: number;
  state: FileRecord['state'];
  source: FileRecord['source'];
  storageKey: string;
  /** The owner still takes bytes (a transfer: active, not purged). */
  ownerLive: boolean;
  /** When an unfinished upload is given up: the owner's end. */
  keptUntil: Date;
}

/** The file with what its owner says of it now, or null when the owner is gone. */
async function withOwnerStatus(services: Pick<Services, 'db' | 'owners'>, file: Omit<UploadFile, 'ownerLive' | 'keptUntil'>): Promise<UploadFile | null> {
  const owner = await services.owners.of(file.ownerKind).status(services.db, file.ownerId);
  return owner ? { ...file, ownerLive: owner.live, keptUntil: owner.keptUntil } : null;
}

/** Whether this file's bytes come through the tus endpoint at all. */
const takesUploads = (file: UploadFile) => file.source === 'upload' && file.storageKey === file.id;
/** Whether bytes can still be sent for this file (the upload token is checked separately). */
const isUploadable = (file: UploadFile) => takesUploads(file) && file.ownerLive;

/**
 * The file an upload token opens right now. `urlId` is the upload id from the URL (null on
 * creation): a token for another file is refused exactly like a missing or expired one.
 */
export async function authorizeUpload(services: Services, token: string | undefined, urlId: string | null): Promise<UploadFile> {
  const grant = await verifyUploadToken(services.db, token, services.clock.now());
  if (!grant || (urlId !== null && grant.fileId !== urlId)) throw refuse('unauthorized');
  if (!grant.workspaceActive) throw refuse('workspace_disabled');
  if (grant.file.workspaceId !== grant.workspaceId) throw refuse('unauthorized');
  const file = await withOwnerStatus(services, grant.file);
  if (!file) throw refuse('unauthorized');
  if (!takesUploads(file)) throw refuse('not_an_upload');
  // tus 1.0 prefers 410 to 404 for an upload the server knows has ended.
  if (!isUploadable(file)) throw refuse('upload_gone');
  return file;
}

const PATCH_CONTENT_TYPE = 'application/offset+octet-stream';

/**
 * The PATCH headers, checked as @tus/server checks them (so that both agree on what passes) but
 * answered as tus 1.0 says: 415 for another body type, 400 for a missing or malformed offset.
 */
function assertPatchHeaders(c: Context<AppEnv>): void {
  if (c.req.header('content-type') !== PATCH_CONTENT_TYPE) throw refuse('invalid_content_type');
  const offset = c.req.header('upload-offset');
  if (offset === undefined) throw refuse('missing_offset');
  if (!/^(0|[1-9][0-9]{0,15})$/.test(offset)) throw refuse('invalid_offset');
  if (c.req.header('upload-length') !== undefined) {
    throw refuse('invalid_length', { problem: said({ id: 'api.uploads.lengthOnlyAtCreation', defaultMessage: 'is sent only when the upload is created (no creation-defer-length here)' }) });
  }
}

/** Mounts the tus endpoint at `/files/` (before the SPA fallback, which would answer GET with HTML). */
export function mountTus(app: Hono<AppEnv>, services: Services, locker: Locker): void {
  const { config, log } = services;
  const store = new CrcDataStore(services.storage.tusStore(), services);
  const origin = publicOrigin(config.PUBLIC_URL);
  // PUBLIC_URL may carry a path prefix that a proxy strips; the Location header keeps it, and stays
  // relative so that the client resolves it against the host it used.
  const basePath = new URL(config.PUBLIC_URL).pathname.replace(/\/+$/, '');
  /** The authorized file of each request, set before @tus/server sees the request. */
  const authorized = new WeakMap<object, UploadFile>();
  /** What @tus/server caught while handling a request, for `refusalOf`. */
  const thrown = new WeakMap<object, unknown>();

  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    locker,
    respectForwardedHeaders: config.TRUST_PROXY,
    relativeLocation: true,
    generateUrl: (_req, { path, id }) => `${basePath}${path}/${id}`,
    allowedOrigins: (o) => o === origin,
    disableTerminationForFinishedUploads: true,
    namingFunction: (req) => {
      const file = authorized.get(req);
      if (!file) throw refuse('unauthorized');
      return file.id;
    },
    onIncomingRequest: async (req, uploadId) => {
      // Authorization ran in the route; this makes sure tus touches exactly the file it opened.
      if (authorized.get(req)?.id !== uploadId) throw refuse('unauthorized');
    },
    onUploadFinish: async (_req, upload) => {
      await store.complete(upload.id);
      return {};
    },
    onResponseError: (req, err) => {
      thrown.set(req, err);
      return undefined;
    },
  });

  /**
   * A request @tus/server refused, as our refusal: from what it threw when it caught an error
   * (its own, or ours from a hook or the store), else from the plain text it wrote itself.
   */
  const refusalOf = async (req: Request, res: Response) => {
    const cause = thrown.get(req) ?? { status_code: res.status, body: await res.text() };
    const refusal = tusRefusal(cause);
    if (refusal.status >= 500) log.warn({ err: cause }, 'upload request failed');
    return refusal;
  };

  const handle = async (c: Context<AppEnv>) => {
    const req = c.req.raw;
    // Hono routes HEAD as GET; the request keeps its own method.
    const method = req.method;
    const uploadId = UPLOAD_PATH.exec(c.req.path)?.[1] ?? null;
    if (uploadId === null && !COLLECTION_PATH.test(c.req.path)) throw refuse('no_such_path');
    if (method === 'OPTIONS') return tus.handleWeb(req);

    const allowed = uploadId === null ? ['POST'] : ['HEAD', 'PATCH', 'DELETE'];
    if (!allowed.includes(method)) {
      throw refuse('method_not_allowed', { message: said({ id: 'api.uploads.methodNotAllowedNamed', defaultMessage: '{method} is not allowed here' }, { method }), headers: { Allow: [...allowed, 'OPTIONS'].join(', ') } });
    }
    // The protocol version frames every other header, so it is checked first (as tusd does).
    if (c.req.header('tus-resumable') !== TUS_RESUMABLE) throw refuse('unsupported_version');

    const file = await authorizeUpload(services, c.req.header(UPLOAD_TOKEN_HEADER), uploadId);
    if (method === 'PATCH') assertPatchHeaders(c);
    if (file.state !== 'uploading' && !(method === 'HEAD' && file.state === 'complete')) {
      throw refuse('upload_complete', { details: { reason: `upload_${file.state}` } });
    }
    if (method === 'POST') {
      if (c.req.header('upload-concat') !== undefined) throw refuse('concatenation');
      if (c.req.header('upload-defer-length') !== undefined) {
        throw refuse('deferred_length', { problem: said({ id: 'api.uploads.deferredLengthSize', defaultMessage: 'not supported; send Upload-Length: {size}' }, { size: String(file.sizeBytes) }) });
      }
      if (c.req.header('upload-length') !== String(file.sizeBytes)) {
        throw refuse('invalid_length', { problem: said({ id: 'api.uploads.lengthMustBe', defaultMessage: 'must be {size}, the registered size of this file' }, { size: String(file.sizeBytes) }) });
      }
      if (await store.exists(file.id)) throw refuse('upload_exists');
    }

    authorized.set(req, file);
    const res = await tus.handleWeb(req);
    if (res.status >= 400) throw await refusalOf(req, res);

    if (res.ok) {
      const offset = Number(res.headers.get('upload-offset') ?? (method === 'POST' ? 0 : NaN));
      if (method === 'HEAD' && offset === file.sizeBytes && file.state === 'uploading') {
        // Every byte is stored but the file was never marked complete (a crash or a failed write
        // after the last byte): the client now considers the upload done, so finish it here.
        // If that fails the client must not take the upload for done: it hears 5xx and asks again.
        await store.complete(file.id).catch((err: unknown) => {
          log.error({ err, fileId: file.id }, 'could not complete upload');
          throw tusRefusal(err);
        });
      }
      // Expiration extension: an unfinished upload lives as long as its owner.
      if (method !== 'DELETE' && offset < file.sizeBytes) res.headers.set('Upload-Expires', file.keptUntil.toUTCString());
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
