import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';

/** Carries the request id to every log line written while a request is handled. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const ctx = requestContext.getStore();
      return ctx ? { requestId: ctx.requestId } : {};
    },
    // Credentials must never reach a log line, whatever a caller passes in.
    redact: {
      paths: ['authorization', 'cookie', 'password', 'secret', 'token', '*.authorization', '*.cookie', '*.password', '*.secret', '*.token', 'headers.authorization', 'headers.cookie', 'headers["x-service-upload-token"]'],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
