import { E2eeError } from './errors.js';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const values = new Map([...alphabet].map((c, i) => [c, i]));

/** RFC 4648 §5 base64url without padding. Written out (not btoa) so it needs no binary strings and no Buffer. */
export function toBase64url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * Strict decoding: no padding, no whitespace, no standard-alphabet `+` or `/`, and unused trailing bits zero,
 * so every byte string has exactly one accepted text (a changed character never decodes to the same bytes).
 */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  if (text.length % 4 === 1) throw new E2eeError('malformed', 'Not base64url: the length is impossible');
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (const c of text) {
    const v = values.get(c);
    if (v === undefined) throw new E2eeError('malformed', `Not base64url: unexpected character ${JSON.stringify(c)}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  if (acc !== 0) throw new E2eeError('malformed', 'Not base64url: the last character carries bits beyond the data');
  return out;
}
