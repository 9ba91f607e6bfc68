import { currentIntl } from './intl';

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

/**
 * The API words a field's problem with the field as its subject ("password must be at least 4 characters",
 * "password is required for visibility password"), so that it reads alone in a log or an API client, and
 * its `message` adds where ("Invalid body: password: …"). To a person that is raw: these two say it as
 * sentences, one to stand alone and one to sit beside the field, whose label already names it.
 */
function fieldProblemParts({ path, message }: FieldError): { subject: string; predicate: string; leadsWithSubject: boolean } {
  const [, firstWord = '', rest = ''] = /^(\S+)\s+([\s\S]*)$/.exec(message.trim()) ?? [];
  const segments = path.split('.');
  if (firstWord === path || segments.includes(firstWord)) return { subject: firstWord, predicate: rest, leadsWithSubject: true };
  return { subject: path, predicate: message.trim(), leadsWithSubject: false };
}

/** "maxDownloads.0" → "max downloads 0". */
function fieldWords(path: string): string {
  return path
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._]/g, ' ')
    .toLowerCase();
}

function asSentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** Standing alone: "Password is required for visibility password.", "First name must be at most 200 characters." */
export function fieldProblemSentence(field: FieldError): string {
  const { subject, predicate, leadsWithSubject } = fieldProblemParts(field);
  // A predicate that is already a sentence of its own ("Invalid input: …") keeps its words.
  if (!leadsWithSubject && /^\p{Lu}/u.test(predicate)) return asSentence(predicate);
  return asSentence(`${fieldWords(subject)} ${predicate}`);
}

/** Beside its field: "Use at least 4 characters." (as the dashboard's own checks say it), "Required for visibility password." */
export function fieldProblemAtField(field: FieldError): string {
  const { predicate, leadsWithSubject } = fieldProblemParts(field);
  // Already written for a person ("Use at most 200 characters", from the dashboard's own endpoints): kept as it is.
  if (!leadsWithSubject && /^\p{Lu}/u.test(predicate)) return predicate;
  const length = /^must be at (least|most) (\S+) characters?$/.exec(predicate);
  if (length) {
    const count = Number(length[2]);
    // Not a number after all: the server's words, as a sentence.
    if (!Number.isInteger(count)) return asSentence(predicate);
    return length[1] === 'least'
      ? currentIntl().formatMessage({ id: 'pages.apiError.atLeast', defaultMessage: 'Use at least {count, plural, one {# character} other {# characters}}.' }, { count })
      : currentIntl().formatMessage({ id: 'pages.apiError.atMost', defaultMessage: 'Use at most {count, plural, one {# character} other {# characters}}.' }, { count });
  }
  return asSentence(predicate.replace(/^is\s+/, ''));
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
    const parsed = new ApiRequestError({
      status: response.status,
      code: error.code,
      message: error.message,
      details: isRecord(error.details) ? error.details : {},
      docs: typeof error.docs === 'string' ? error.docs : undefined,
      retryAfterSeconds,
    });
    // Every form shows `message` where it places no field: the API's "Invalid body: password: password is …" is said
    // as sentences instead. A message written for a person (the dashboard's own endpoints) stays.
    const fieldErrors = parsed.fieldErrors;
    if (error.code !== 'invalid_request' || fieldErrors.length === 0 || !/^Invalid \w+: /.test(error.message)) return parsed;
    return new ApiRequestError({
      status: parsed.status,
      code: parsed.code,
      message: fieldErrors.map(fieldProblemSentence).join(' '),
      details: parsed.details,
      docs: parsed.docs,
      retryAfterSeconds,
    });
  }
  return new ApiRequestError({
    status: response.status,
    code: 'unexpected_response',
    message: response.statusText
      ? currentIntl().formatMessage(
          { id: 'pages.apiError.unexpectedStatusText', defaultMessage: 'The server answered {status} {statusText}. Try again in a moment.' },
          { status: String(response.status), statusText: response.statusText },
        )
      : currentIntl().formatMessage(
          { id: 'pages.apiError.unexpectedStatus', defaultMessage: 'The server answered {status}. Try again in a moment.' },
          { status: String(response.status) },
        ),
    retryAfterSeconds,
  });
}
