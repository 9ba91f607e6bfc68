/** One offending field of a `400 invalid_request`: `path` is the dotted location in the request body. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * A failed request, as the server described it: `{ error: { code, message, details, docs } }`.
 * Network failures and unreadable answers become one too (`network_error`, `unexpected_response`),
 * so the UI has one kind of error to show.
 */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly docs: string | undefined;
  /** From `Retry-After`, when the server sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    docs?: string;
    retryAfterSeconds?: number;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.docs = init.docs;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** `details.fields` of a validation error, keeping only well-formed entries. */
  get fieldErrors(): FieldError[] {
    const fields = this.details.fields;
    if (!Array.isArray(fields)) return [];
    return fields.filter(
      (f): f is FieldError =>
        typeof f === 'object' && f !== null && typeof f.path === 'string' && typeof f.message === 'string',
    );
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseRetryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Reads the error body of a non-2xx response; falls back to the status when the body is not ours. */
export async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiRequestError({
      status: response.status,
      code: error.code,
      message: error.message,
      details: isRecord(error.details) ? error.details : {},
      docs: typeof error.docs === 'string' ? error.docs : undefined,
      retryAfterSeconds,
    });
  }
  return new ApiRequestError({
    status: response.status,
    code: 'unexpected_response',
    message: `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Try again in a moment.`,
    retryAfterSeconds,
  });
}
