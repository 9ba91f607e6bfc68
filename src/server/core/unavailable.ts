/**
 * Whether an error means a service the server depends on cannot be reached right now (PostgreSQL
 * down or restarting, a connection cut or refused), as opposed to a bug: such a request is answered
 * 503 `unavailable` with Retry-After, and succeeds again once the service is back, with no restart.
 */

/** SQLSTATEs of a server that is going away or not accepting connections yet (class 08 is checked as a class). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** What node-postgres says when a connection it holds, or is opening, goes away (these carry no code). */
const UNAVAILABLE_MESSAGES = /^(Connection terminated|Connection terminated unexpectedly|Connection terminated due to connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

export function isUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 5) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  if (UNAVAILABLE_MESSAGES.test(err.message)) return true;
  // Connecting to a host name with several addresses fails with one error per address.
  if (err instanceof AggregateError && err.errors.some((e) => isUnavailable(e, depth + 1))) return true;
  // Query builders wrap the driver's error.
  return isUnavailable(err.cause, depth + 1);
}

/** Seconds a client is told to wait before retrying. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
