import type { Context } from 'hono';

/** Sets headers on the response a handler produced, copying it first when its headers are immutable. */
export function setResponseHeaders(c: Context, headers: Record<string, string>): void {
  const entries = Object.entries(headers);
  if (entries.length === 0) return;
  try {
    for (const [k, v] of entries) c.res.headers.set(k, v);
  } catch {
    const copy = new Response(c.res.body, c.res);
    for (const [k, v] of entries) copy.headers.set(k, v);
    c.res = copy;
  }
}

/** The caller's address: the socket's, or the first X-Forwarded-For hop when TRUST_PROXY is on. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
