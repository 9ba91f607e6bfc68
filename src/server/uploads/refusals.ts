import { ERRORS, HEADERS, TUS_RESUMABLE } from '@tus/server';
import { errorCodeForStatus, type ErrorCode } from '../../contract/errors.js';
import { ApiError, invalidInput } from '../core/errors.js';
import { isUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/unavailable.js';
import { workspaceDisabled } from '../workspaces/active.js';
import { UPLOAD_TOKEN_HEADER } from './tokens.js';
import { said, type Sentence } from '../core/sentences.js';

/**
 * Every way the tus endpoint refuses a request, in one table (as tusd's `error.go` does): the
 * condition, our code, and what the client is told. The status is always the code's own, from
 * `errorStatus`, and for each condition tus 1.0 names it is the status tus 1.0 gives: 400 for a
 * missing or malformed Upload-Offset or Upload-Length, 404 for an unknown upload, 409 for an offset
 * that is not the upload's, 410 for an upload that has ended, 412 (with Tus-Version) for a
 * Tus-Resumable we do not speak, 413 for bytes past the upload's length, 415 for a PATCH body that
 * is not application/offset+octet-stream.
 *
 * A refusal is detected either by the route (before @tus/server sees the request) or by @tus/server
 * itself; `tusRefusal` turns whatever @tus/server threw or wrote into the same entry, so that a
 * condition gets one answer whoever notices it. `app.onError` renders the result like every other
 * error of the service: JSON in the Error shape.
 */

const PATCH_CONTENT_TYPE = 'application/offset+octet-stream';

interface RefusalBase {
  code: ErrorCode;
  /** `details.reason`, where the code stands for several conditions. */
  reason?: string;
  /** Response headers the refusal carries. */
  headers?: Record<string, string>;
}
/** A refusal about one request header: named in `details.fields` and in the message. */
interface HeaderRefusal extends RefusalBase {
  header: string;
  problem: Sentence;
}
interface PlainRefusal extends RefusalBase {
  message: Sentence;
}
type Refusal = HeaderRefusal | PlainRefusal;

export const tusRefusals = {
  // The request itself.
  unsupported_version: {
    code: 'precondition_failed',
    header: 'Tus-Resumable',
    problem: said({ id: 'api.uploads.tusVersion', defaultMessage: 'must be {version}' }, { version: TUS_RESUMABLE }),
    headers: { 'Tus-Version': TUS_RESUMABLE },
  },
  unauthorized: { code: 'unauthorized', message: said({ id: 'api.uploads.tokenRequired', defaultMessage: 'A valid upload token for this file is required in the {header} header.' }, { header: UPLOAD_TOKEN_HEADER }) },
  workspace_disabled: { code: 'forbidden', reason: 'workspace_disabled', message: workspaceDisabled() },
  method_not_allowed: { code: 'method_not_allowed', message: said({ id: 'api.uploads.methodNotAllowed', defaultMessage: 'This method is not allowed here' }) },
  no_such_path: { code: 'not_found', message: said({ id: 'api.uploads.noSuchPath', defaultMessage: 'No such upload' }) },
  invalid_headers: { code: 'invalid_request', message: said({ id: 'api.uploads.invalidHeaders', defaultMessage: 'A tus header has a value tus 1.0 does not allow' }) },

  // Creation.
  invalid_length: { code: 'invalid_request', header: 'Upload-Length', problem: said({ id: 'api.uploads.invalidLength', defaultMessage: 'must be the size of the upload in decimal digits' }) },
  deferred_length: { code: 'invalid_request', header: 'Upload-Defer-Length', problem: said({ id: 'api.uploads.deferredLength', defaultMessage: 'not supported; send Upload-Length' }) },
  concatenation: { code: 'invalid_request', header: 'Upload-Concat', problem: said({ id: 'api.uploads.concatenation', defaultMessage: 'concatenation is not supported' }) },
  invalid_metadata: {
    code: 'invalid_request',
    header: 'Upload-Metadata',
    problem: said({ id: 'api.uploads.invalidMetadata', defaultMessage: 'must be comma-separated pairs of a key and a base64 value, separated by a space' }),
  },
  upload_exists: {
    code: 'conflict',
    reason: 'upload_exists',
    message: said({ id: 'api.uploads.uploadExists', defaultMessage: 'An upload for this file already exists; resume it with HEAD and PATCH on its URL.' }),
  },

  // PATCH.
  missing_offset: { code: 'invalid_request', header: 'Upload-Offset', problem: said({ id: 'api.uploads.missingOffset', defaultMessage: 'required' }) },
  invalid_offset: { code: 'invalid_request', header: 'Upload-Offset', problem: said({ id: 'api.uploads.invalidOffset', defaultMessage: 'must be a byte offset in decimal digits' }) },
  invalid_content_type: { code: 'unsupported_media_type', header: 'Content-Type', problem: said({ id: 'api.uploads.contentType', defaultMessage: 'must be {type}' }, { type: PATCH_CONTENT_TYPE }) },
  offset_mismatch: {
    code: 'conflict',
    reason: 'offset_mismatch',
    message: said({ id: 'api.uploads.offsetMismatch', defaultMessage: 'Upload-Offset is not the offset of the upload; ask for it with HEAD and continue from there.' }),
  },
  size_exceeded: { code: 'payload_too_large', message: said({ id: 'api.uploads.sizeExceeded', defaultMessage: 'The bytes run past the registered size of the upload.' }) },

  // The upload.
  upload_not_found: { code: 'not_found', message: said({ id: 'api.uploads.uploadNotFound', defaultMessage: 'No upload was created at this URL; create it with POST first.' }) },
  not_an_upload: { code: 'not_found', message: said({ id: 'api.uploads.notAnUpload', defaultMessage: 'This file does not take uploads.' }) },
  upload_gone: { code: 'gone', message: said({ id: 'api.uploads.uploadGone', defaultMessage: 'This upload is no longer available: what it was sent to (a transfer, a collection) has ended.' }) },
  upload_complete: { code: 'conflict', reason: 'upload_complete', message: said({ id: 'api.uploads.uploadComplete', defaultMessage: 'This file has finished uploading.' }) },
  upload_locked: { code: 'locked', message: said({ id: 'api.uploads.uploadLocked', defaultMessage: 'Another request for this upload is still running; retry shortly.' }) },
  upload_interrupted: {
    code: 'invalid_request',
    reason: 'upload_interrupted',
    message: said({ id: 'api.uploads.uploadInterrupted', defaultMessage: 'A newer request for this upload took it over before this one finished.' }),
  },

  // The server.
  extension_unsupported: { code: 'not_implemented', message: said({ id: 'api.uploads.extensionUnsupported', defaultMessage: 'This tus extension is not offered here.' }) },
  unavailable: {
    code: 'unavailable',
    message: said({ id: 'api.uploads.unavailable', defaultMessage: 'The service cannot reach its database or storage right now; resume the upload shortly.' }),
    headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  },
  internal: { code: 'internal_error', message: said({ id: 'api.uploads.internal', defaultMessage: 'Something went wrong on our side' }) },
} as const satisfies Record<string, Refusal>;

export type TusRefusalKind = keyof typeof tusRefusals;

/**
 * The entry of each error @tus/server defines. Where tus 1.0 names no status, the choice is the
 * one a client can act on: a tus extension we do not offer is the client's error (400, not
 * @tus/server's 501, which tus clients retry), a terminated finished upload is the same 409 as our
 * own check gives, and a lock held past @tus/server's timeout is 423, which tus clients retry.
 */
export const tusServerErrors: Record<keyof typeof ERRORS, TusRefusalKind> = {
  MISSING_OFFSET: 'missing_offset',
  INVALID_CONTENT_TYPE: 'invalid_content_type',
  FILE_NOT_FOUND: 'upload_not_found',
  INVALID_OFFSET: 'offset_mismatch',
  FILE_NO_LONGER_EXISTS: 'upload_gone',
  ERR_SIZE_EXCEEDED: 'size_exceeded',
  ERR_MAX_SIZE_EXCEEDED: 'size_exceeded',
  INVALID_LENGTH: 'invalid_length',
  INVALID_METADATA: 'invalid_metadata',
  UNSUPPORTED_CONCATENATION_EXTENSION: 'concatenation',
  UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION: 'deferred_length',
  UNSUPPORTED_EXPIRATION_EXTENSION: 'extension_unsupported',
  INVALID_TERMINATION: 'upload_complete',
  ERR_LOCK_TIMEOUT: 'upload_locked',
  ABORTED: 'upload_interrupted',
  UNKNOWN_ERROR: 'internal',
  FILE_WRITE_ERROR: 'internal',
};

export interface RefusalOverrides {
  /** For a header refusal: what is wrong with the header, in place of the entry's. */
  problem?: Sentence;
  message?: Sentence;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const headerFields = (fields: { path: string; message: string }[]) => ({ location: 'header', fields });

/** The refusal of `kind` as the error handlers throw. */
export function refuse(kind: TusRefusalKind, overrides: RefusalOverrides = {}): ApiError {
  const entry: Refusal = tusRefusals[kind];
  let message: Sentence;
  let details: Record<string, unknown> = {};
  if ('header' in entry) {
    const problem = overrides.problem ?? entry.problem;
    message = invalidInput('header', entry.header, problem);
    details = headerFields([{ path: entry.header, message: problem.english }]);
  } else {
    message = entry.message;
  }
  if (entry.reason) details.reason = entry.reason;
  return new ApiError(entry.code, overrides.message ?? message, { ...details, ...overrides.details }, { ...entry.headers, ...overrides.headers });
}

/** An error as @tus/server throws it (an `ERRORS` entry or a copy) or as it writes it: status and plain text. */
export interface TusError {
  status_code: number;
  body: string;
}

export const isTusError = (err: unknown): err is TusError =>
  typeof err === 'object' && err !== null && typeof (err as TusError).status_code === 'number' && typeof (err as TusError).body === 'string';

const tusErrorNames = Object.keys(ERRORS) as (keyof typeof ERRORS)[];
/** `ERRORS` entries are recognised by their text, so copies (StreamLimiter's error) and written responses match too. */
function tusErrorName({ status_code, body }: TusError): keyof typeof ERRORS | undefined {
  return (
    tusErrorNames.find((name) => ERRORS[name].status_code === status_code && ERRORS[name].body === body) ??
    // An unexpected error is written as UNKNOWN_ERROR's text followed by its own message.
    (status_code >= 500 && body.startsWith(ERRORS.UNKNOWN_ERROR.body) ? 'UNKNOWN_ERROR' : undefined)
  );
}

/** A header @tus/server found invalid that has its own entry. */
const singleHeaderRefusals: Record<string, TusRefusalKind | undefined> = {
  'upload-offset': 'invalid_offset',
  'upload-length': 'invalid_length',
  'upload-metadata': 'invalid_metadata',
};
const canonicalHeader = new Map(HEADERS.map((h) => [h.toLowerCase(), h]));

/** What @tus/server writes itself before it dispatches a request: the version check and the header validation. */
function writtenRefusal({ status_code, body }: TusError): ApiError {
  const text = body.trim();
  if (status_code === 412) return refuse('unsupported_version');
  const invalid = status_code === 400 ? /^Invalid ([a-z0-9-]+(?: [a-z0-9-]+)*)$/i.exec(text) : null;
  if (invalid) {
    const names = invalid[1]!.toLowerCase().split(' ');
    // tus 1.0: an unsupported version is 412 and a PATCH body of another type 415, whatever else is wrong.
    if (names.includes('tus-resumable')) return refuse('unsupported_version');
    if (names.includes('content-type')) return refuse('invalid_content_type');
    const single = names.length === 1 ? singleHeaderRefusals[names[0]!] : undefined;
    if (single) return refuse(single);
    const fields = names.map((name) => ({ path: canonicalHeader.get(name) ?? name, message: 'has a value tus 1.0 does not allow' }));
    return refuse('invalid_headers', {
      message: said({ id: 'api.uploads.invalidHeadersNamed', defaultMessage: 'Invalid headers: {headers}', description: 'headers: header names, comma-separated' }, { headers: fields.map((f) => f.path).join(', ') }),
      details: headerFields(fields),
    });
  }
  if (status_code === 404) return refuse('no_such_path');
  // Something this table does not know yet: the general code of its status, which keeps the pair intact.
  const code = errorCodeForStatus(status_code);
  return code === 'internal_error' ? refuse('internal') : new ApiError(code, text || said({ id: 'api.uploads.refused', defaultMessage: 'The upload request was refused' }));
}

/**
 * The refusal for whatever a tus request ended in: our own refusal (thrown from a hook or the data
 * store) as it is, an error of @tus/server's by its entry, anything else as an internal error whose
 * text is not shown.
 */
export function tusRefusal(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isUnavailable(err)) return refuse('unavailable');
  if (!isTusError(err)) return refuse('internal');
  const name = tusErrorName(err);
  return name ? refuse(tusServerErrors[name]) : writtenRefusal(err);
}
