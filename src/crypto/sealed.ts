import { fromBase64url, toBase64url } from './base64url.js';
import { bufferSource, concatBytes, utf8 } from './bytes.js';
import { E2eeError } from './errors.js';

/** Sealed values are padded to a multiple of this, so their length tells the server little (a name's length, say). */
export const SEAL_BUCKET = 256;
const IV_SIZE = 12;
const TAG_SIZE = 16;
const LENGTH_PREFIX = 4;

/**
 * What a sealed value belongs to. It is the additional data, so a value opens only for the same purpose, transfer
 * and file: the server cannot move one file's name or thumbnail to another file or transfer.
 */
export interface SealBinding {
  purpose: string;
  transferId: string;
  fileId?: string;
}

// A JSON array keeps the fields apart whatever characters the ids hold.
const additionalData = (b: SealBinding) => utf8(JSON.stringify(['parcel e2ee v1 sealed', b.purpose, b.transferId, b.fileId ?? null]));

/** 4-byte big-endian length, the bytes, zeros up to the next multiple of SEAL_BUCKET. */
export function padToBucket(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const padded = new Uint8Array(Math.ceil((LENGTH_PREFIX + bytes.length) / SEAL_BUCKET) * SEAL_BUCKET);
  new DataView(padded.buffer).setUint32(0, bytes.length);
  padded.set(bytes, LENGTH_PREFIX);
  return padded;
}

function unpad(padded: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const length = padded.length >= LENGTH_PREFIX ? new DataView(padded.buffer, padded.byteOffset).getUint32(0) : -1;
  const end = LENGTH_PREFIX + length;
  if (length < 0 || end > padded.length || padded.subarray(end).some((b) => b !== 0)) throw new E2eeError('malformed', 'A sealed value has broken padding');
  return padded.slice(LENGTH_PREFIX, end);
}

/** AES-256-GCM with a random 12-byte IV over the padded bytes; the text is base64url(IV ‖ ciphertext ‖ tag). */
export async function sealBytes(key: CryptoKey, bytes: Uint8Array, binding: SealBinding): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_SIZE));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(binding) }, key, padToBucket(bytes));
  return toBase64url(concatBytes(iv, new Uint8Array(sealed)));
}

export async function openBytes(key: CryptoKey, text: string, binding: SealBinding): Promise<Uint8Array<ArrayBuffer>> {
  const data = fromBase64url(text);
  if (data.length < IV_SIZE + TAG_SIZE + SEAL_BUCKET) throw new E2eeError('malformed', 'A sealed value is too short to be one');
  let padded: Uint8Array<ArrayBuffer>;
  try {
    const params: AesGcmParams = { name: 'AES-GCM', iv: data.subarray(0, IV_SIZE), additionalData: additionalData(binding) };
    padded = new Uint8Array(await crypto.subtle.decrypt(params, key, bufferSource(data.subarray(IV_SIZE))));
  } catch {
    const why = 'it was changed, belongs to another file or transfer, or the key is wrong';
    throw new E2eeError('tampered', `A sealed ${binding.purpose} failed authentication: ${why}`);
  }
  return unpad(padded);
}

export const sealJson = (key: CryptoKey, value: unknown, binding: SealBinding): Promise<string> => sealBytes(key, utf8(JSON.stringify(value)), binding);

/** The value as sealed; callers check its shape (it is authentic, but may come from a newer or buggy sender). */
export async function openJson(key: CryptoKey, text: string, binding: SealBinding): Promise<unknown> {
  const bytes = await openBytes(key, text, binding);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new E2eeError('malformed', `A sealed ${binding.purpose} is not JSON`);
  }
}
