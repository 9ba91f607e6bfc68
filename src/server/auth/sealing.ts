import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) for values that must be read back but never sit in plain
 * text at rest, such as remembered responses that carry a secret shown once. The sealed form is
 * base64url of nonce (12 bytes), ciphertext and tag (16 bytes). `context` is bound as associated
 * data, so a sealed value copied to another row or purpose does not open.
 */

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A 256-bit key for one purpose, derived from the server's secret material with HKDF-SHA256. */
export function deriveKey(material: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), `parcel:${purpose}`, 32));
}

export function seal(key: Buffer, plaintext: string, context: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
}

/** The plaintext, or null when the value was sealed with another key or context, or was altered. */
export function unseal(key: Buffer, sealed: string, context: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < NONCE_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
