/* Plain values, free of zod, so the browser app can import them without the schema library. */
/**
 * Every error code the service answers with, and the status each one travels with.
 * Codes are stable; clients branch on them and fall back to the status for codes they do not know.
 */
export const errorStatus = {
  invalid_request: 400,
  unauthorized: 401,
  password_required: 401,
  upgrade_required: 402,
  out_of_credit: 402,
  insufficient_scope: 403,
  forbidden: 403,
  guests_only: 403,
  wrong_password: 401,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  e2ee_unsupported: 409,
  files_arriving: 409,
  request_timeout: 408,
  link_unavailable: 410,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  locked: 423,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

/**
 * The code for an error that arrives only as a status (from a library, a proxy, Node's HTTP
 * parser): the general code of that status, never one whose own status differs.
 */
export const codeForStatus: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'upgrade_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  423: 'locked',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  501: 'not_implemented',
  503: 'unavailable',
};

/** `codeForStatus`, falling back to the general code of the status class. */
export const errorCodeForStatus = (status: number): ErrorCode => codeForStatus[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');

/** One sentence per code, shown on the errors page that every `docs` link points to. */
export const errorExplanations: Record<ErrorCode, string> = {
  invalid_request:
    'The request was malformed: a body or query field failed validation, a `limit` was out of range, a `cursor` was not one this list issued, or an `Idempotency-Key` was not 1 to 255 printable ASCII characters without spaces. `details.fields` names each offending field.',
  unauthorized:
    'No valid credential. The bearer token is missing, malformed, unknown, revoked or expired; all of these look the same on purpose.',
  password_required: 'The shared link is protected by a password and none was given.',
  upgrade_required:
    'The endpoint or event needs a paid plan and the workspace is on the free plan, or its paid plan has lapsed.',
  out_of_credit:
    'API upload usage is past the amount included this month and the workspace has no prepaid credit left. Checked before any byte is accepted.',
  insufficient_scope:
    'The credential is valid but lacks the scope this operation needs. `details.required` names the scope and `details.granted` lists the credential\'s scopes.',
  forbidden: 'The request is not allowed from here, for example a cross-site request to a dashboard endpoint.',
  guests_only: 'The shared link is only open to invited guests.',
  wrong_password: 'The password given for the shared link is not the right one.',
  not_found: 'No such endpoint, or no such resource in this workspace.',
  method_not_allowed: 'The path exists but not with this method.',
  conflict:
    'The request conflicts with another one, or with the state of the resource; `details.reason` says which. For idempotent requests it is `idempotency_in_progress` (retry after `Retry-After` seconds) or `idempotency_key_reused` (the key was used with another method, path or body). Sending a transfer names what keeps it a draft, for example `uploads_incomplete` or `files_infected` (the virus scan found malware in `details.infectedFileIds`, also named in `details.infectedFileNames`: remove them and send again).',
  e2ee_unsupported:
    'The transfer is end-to-end encrypted; its files can only be opened in a browser that holds the key.',
  files_arriving:
    'The transfer was sent while URL imports of its files were still running: its link works once the last one lands. Nothing can be downloaded before then; try again after `Retry-After` seconds.',
  request_timeout: 'The request was not received in time; the connection is closed. Send it again.',
  link_unavailable: 'The shared link has expired, was revoked or reached its download limit.',
  gone: 'The resource existed but is no longer available, such as an upload whose transfer ended.',
  precondition_failed:
    'A precondition in the request headers failed: for resumable uploads, `Tus-Resumable` must name a version the server speaks (listed in `Tus-Version`).',
  payload_too_large: 'The request body is larger than this endpoint accepts.',
  unsupported_media_type:
    'The request body has a `Content-Type` this endpoint does not take: JSON endpoints want `application/json`, and upload PATCH requests want `application/offset+octet-stream`.',
  range_not_satisfiable: 'The requested byte range starts past the end of the file; `Content-Range: bytes */<size>` gives the size.',
  locked:
    'The resumable upload is held by another request for it (usually an earlier PATCH that has not let go yet). Retry shortly; tus clients do this by themselves.',
  rate_limited:
    'Too many requests: a per-address limit for requests without a valid key, a per-key or per-workspace limit, or the monthly call allowance. Wait `Retry-After` seconds.',
  headers_too_large: 'The request headers are larger than the server accepts (16 KB in all).',
  internal_error: 'Something failed on the server. The request id in `X-Request-Id` helps the operator find it.',
  not_implemented: 'The request asks for a protocol feature this server does not offer, such as a tus extension it does not implement.',
  unavailable: 'The service is starting or shutting down, or cannot reach its database or storage for a moment. Retry after `Retry-After` seconds.',
};

