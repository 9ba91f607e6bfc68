import type { MiddlewareHandler } from 'hono';
import { setResponseHeaders } from '../headers.js';

/**
 * A strict policy for every response: no inline script or style, no framing, nothing loaded from
 * another origin. `blob:` images let the app preview files it is about to upload (and show the
 * vault's decrypted thumbnails). `'wasm-unsafe-eval'` lets the vault's Argon2id (WebAssembly, in a
 * worker whose script is served with this same policy) compile: it allows compiling WebAssembly
 * modules only, not eval or inline script.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every response carries (also set by hand on responses a Node handler writes itself, such as the OAuth server's). */
export const securityHeaderValues: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * What a built file under /assets (a script, a style sheet, a font, an image) keeps of them: its type
 * enforced, its use kept to this origin, and the policy and referrer policy (a worker's script brings
 * its own). Framing, the opener and permissions concern documents only; on each of the few dozen
 * files a page loads they would only add bytes (about 140 each, 5 KB a first visit).
 */
const documentOnly = new Set(['X-Frame-Options', 'Cross-Origin-Opener-Policy', 'Permissions-Policy']);
export const assetSecurityHeaderValues: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(securityHeaderValues).filter(([name]) => !documentOnly.has(name)),
);

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  setResponseHeaders(c, c.req.path.startsWith('/assets/') && c.res.status === 200 ? assetSecurityHeaderValues : securityHeaderValues);
};
