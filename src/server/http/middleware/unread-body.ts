import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { setResponseHeaders } from '../headers.js';

/** Bodies up to this size are read to the end before an early answer, keeping the connection. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** A client slower than this to send those bytes gets `Connection: close` instead: 1 MiB in 10 s is a slow uplink (100 KB/s), and 2 s was exceeded by clients on a busy machine. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * An answer given without reading the request body (401, 403, 413, a tus refusal) must not leave a
 * keep-alive connection that the server then drops: the client would send its next request on it
 * and never get an answer. So a small body is read to its end before answering, and for a larger,
 * unknown-length or slow one the answer says `Connection: close`, and Node closes the connection
 * once it is sent: the client opens a new one for its next request.
 */
export const settleUnreadBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const incoming = c.env?.incoming;
  if (!incoming || incoming.complete || incoming.readableEnded) return;
  const declared = incoming.headers['content-length'];
  const length = declared === undefined ? NaN : Number(declared);
  if (length <= DRAIN_LIMIT_BYTES && !c.req.raw.bodyUsed && (await drained(c.req.raw))) return;
  setResponseHeaders(c, { Connection: 'close' });
};

async function drained(request: Request): Promise<boolean> {
  const reader = request.body?.getReader();
  if (!reader) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS)));
  const readAll = (async () => {
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      total += value.byteLength;
      if (total > DRAIN_LIMIT_BYTES) return false;
    }
  })().catch(() => false);
  const result = await Promise.race([readAll, timeout]);
  clearTimeout(timer);
  if (!result) void reader.cancel().catch(() => undefined);
  return result;
}
