import type { UploadSession } from './upload-session';

/** tus statuses worth retrying: the server or a proxy in front of it is briefly unavailable. */
export const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** Backoff between tus retries (ms); its length caps the attempts. */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000];

interface RetryableError {
  originalResponse?: { getStatus(): number } | null;
}

/**
 * Whether a failed tus request of file `key` is tried again. A refused token (401) is renewed by
 * the next request; a file whose token could not be renewed stops; 502/503/504 back off and retry;
 * anything else is left to @uppy/tus's own rules (`fallback`).
 */
export function shouldRetryUpload<E extends RetryableError>(session: UploadSession, key: string, error: E, fallback: (error: E) => boolean): boolean {
  if (session.failureOf(key)) return false;
  const status = error.originalResponse?.getStatus();
  if (status === 401) {
    session.markTokenRejected(key);
    return true;
  }
  if (status !== undefined && TRANSIENT_STATUSES.has(status)) return true;
  return fallback(error);
}
