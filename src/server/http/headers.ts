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

/** The host the client asked for and the port it named, if any: `Host`, or the first `X-Forwarded-Host` entry when TRUST_PROXY is on. */
function requestAuthority(c: Context, trustProxy: boolean): { host: string; port: string | null } | null {
  const forwarded = trustProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const raw = forwarded || c.req.header('host');
  if (!raw) return null;
  // `[::1]:8080` keeps its brackets' content whole; `name:8080` loses the port.
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d*))?$/.exec(raw.trim());
  const host = (m?.[1] ?? m?.[2])?.toLowerCase().replace(/\.$/, '');
  return host ? { host, port: m?.[3] || null } : null;
}

/**
 * The hostname the client asked for, lower-case and without port or trailing dot: `Host`, or the first
 * `X-Forwarded-Host` entry when TRUST_PROXY is on (as the tus endpoint honours it). Null when absent or malformed.
 * A client that forges either gets only what it would get by sending that Host itself: it picks no one else's answer.
 */
export function requestHost(c: Context, trustProxy: boolean): string | null {
  return requestAuthority(c, trustProxy)?.host ?? null;
}

/**
 * The origin the client asked for, on `scheme` (the service's own: whoever terminates TLS for PUBLIC_URL does so
 * for a workspace's domain too, and a proxy's scheme header is not always there): `https://files.example.com`,
 * keeping a port the client named. Null when the host is absent or malformed.
 */
export function requestOrigin(c: Context, trustProxy: boolean, scheme: string): string | null {
  const authority = requestAuthority(c, trustProxy);
  if (!authority) return null;
  const host = authority.host.includes(':') ? `[${authority.host}]` : authority.host;
  return `${scheme}//${host}${authority.port ? `:${authority.port}` : ''}`;
}

/** The hostname of a URL as requestHost gives a request's: lower-case, IPv6 without brackets. */
export function hostnameOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
}
