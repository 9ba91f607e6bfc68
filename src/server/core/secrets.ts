import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 text (rejection sampling, so no character is favoured). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Opaque ids with a type prefix, e.g. `ws_4fQ…`. */
export const newId = (prefix: string) => `${prefix}_${randomBase62(20)}`;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * API keys: the live-key prefix and 43 base62 characters (about 256 bits).
 * Keys are high-entropy, so a plain SHA-256 is the right stored form: it is looked up by index,
 * which reveals nothing a timing attack could use.
 */
export const API_KEY_PREFIX = 'sk_live_';
export const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{43}$/;
export const newApiKey = () => `${API_KEY_PREFIX}${randomBase62(43)}`;

/** Dashboard access tokens minted from a session; OAuth access tokens take their own prefix later. */
export const SESSION_TOKEN_PREFIX = 'st_';
export const SESSION_TOKEN_PATTERN = /^st_[0-9A-Za-z]{43}$/;
/** An OAuth access token (oidc-provider's opaque token, prefixed in oauth/provider.ts). */
export const OAUTH_TOKEN_PATTERN = /^oat_[0-9A-Za-z_-]{43}$/;
export const newSessionToken = () => `${SESSION_TOKEN_PREFIX}${randomBase62(43)}`;

/** A short non-secret reminder of which key this is. */
export const keyHint = (key: string) => `${key.slice(0, API_KEY_PREFIX.length)}…${key.slice(-4)}`;
