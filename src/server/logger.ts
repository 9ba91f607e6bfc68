import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The server's logger: JSON lines on stdout unless given another destination. Lines are written
 * asynchronously: a write in flight gathers the lines logged meanwhile into the next one, so a busy
 * server makes one write per batch, not one blocking write per request (about 4 % of the CPU of the
 * mixed load, docs/performance.md); an idle one still writes each line at once. pino flushes what
 * is pending when the process exits.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: loggableError },
      // Credentials must never reach a log line, whatever a caller passes in.
      redact: {
        paths: ['authorization', 'cookie', 'password', 'secret', 'token', '*.authorization', '*.cookie', '*.password', '*.secret', '*.token', 'headers.authorization', 'headers.cookie', 'headers["x-service-upload-token"]'],
        censor: '[redacted]',
      },
    },
    destination ?? (level === 'silent' ? undefined : pino.destination({ dest: 1, sync: false })),
  );
}

/**
 * Properties of errors that carry the values a query was run with. drizzle's query errors keep
 * every bind parameter (and repeat them in their message); PostgreSQL's `detail` and `where` quote
 * the offending row ("Key (secret_hash)=(…) already exists"). Those values are password hashes,
 * key hashes and signing secrets, so they never reach a log line.
 */
const VALUE_BEARING_PROPERTIES = new Set(['params', 'parameters', 'values', 'detail', 'where', 'internalQuery']);

/** PostgreSQL quotes the rejected input in some messages: `invalid input syntax for type uuid: "…"`. */
const quotedInput = /(:\s*|value\s+)"[^"]*"/g;

/**
 * The `err` serializer: the error's type, message, stack and identifying fields (a database
 * error's SQLSTATE `code`, constraint, table and column; a failed query's text), never the
 * parameter values a query carried. Follows `cause` chains.
 */
export function loggableError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  const out: Record<string, unknown> = { type: err.constructor?.name ?? 'Error', message: err.message, stack: err.stack };
  const isQueryError = 'query' in err && 'params' in err;
  if (isQueryError) {
    // drizzle's message is "Failed query: <sql>\nparams: <values>".
    out.message = err.message.replace(/\nparams: [\s\S]*$/, '');
    out.stack = err.stack?.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '');
  }
  const isDatabaseError = 'severity' in err && 'routine' in err;
  if (isDatabaseError) {
    out.message = err.message.replace(quotedInput, '$1"[redacted]"');
    out.stack = err.stack?.replace(quotedInput, '$1"[redacted]"');
  }
  for (const [key, value] of Object.entries(err)) {
    if (VALUE_BEARING_PROPERTIES.has(key) || key === 'cause' || key in out) continue;
    out[key] = value;
  }
  if (err.cause !== undefined && depth < 5) out.cause = loggableError(err.cause, depth + 1);
  return out;
}

export type { Logger };
