import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../core/secrets.js';

/**
 * Compact signed tokens: `base64url(JSON payload) + '.' + base64url(HMAC-SHA256)`, the MAC cut to
 * 32 characters (192 bits). Keys are derived from the server's shared secret per purpose, so a
 * token minted for one purpose never verifies for another, and every instance agrees on them.
 */

const SIGNATURE_LENGTH = 32;
const derived = new WeakMap<Buffer, Map<string, Buffer>>();

export type TokenPurpose = 'download-links' | 'transfer-unlock' | 'thumbnails' | 'collection-guest';

/** HMAC(secret, purpose): the signing key for one purpose. */
export function purposeKey(secret: Buffer, purpose: TokenPurpose): Buffer {
  let byPurpose = derived.get(secret);
  if (!byPurpose) derived.set(secret, (byPurpose = new Map()));
  let key = byPurpose.get(purpose);
  if (!key) byPurpose.set(purpose, (key = createHmac('sha256', secret).update(purpose).digest()));
  return key;
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url').slice(0, SIGNATURE_LENGTH);

export function signToken(key: Buffer, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(key, body)}`;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,4096}\.[A-Za-z0-9_-]{32}$/;

/** The payload of a token this key signed, or null (malformed or a bad signature; compared in constant time). */
export function verifyToken(key: Buffer, token: string | undefined | null): unknown {
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const dot = token.indexOf('.');
  const body = token.slice(0, dot);
  if (!constantTimeEqual(mac(key, body), token.slice(dot + 1))) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
