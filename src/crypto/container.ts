import { bufferSource, utf8 } from './bytes.js';
import { E2eeError } from './errors.js';

/** ASCII "PCLE": a parcel end-to-end encrypted container. */
export const MAGIC: readonly number[] = [0x50, 0x43, 0x4c, 0x45];
export const FORMAT_VERSION = 1;
export const CHUNK_SIZE_LOG2 = 20;
/** P: plaintext bytes per chunk (1 MiB). */
export const CHUNK_SIZE = 2 ** CHUNK_SIZE_LOG2;
export const HEADER_SIZE = 24;
export const SALT_SIZE = 16;
export const TAG_SIZE = 16;
/** A non-final chunk on the wire: P bytes of ciphertext and the GCM tag. */
export const SEALED_CHUNK_SIZE = CHUNK_SIZE + TAG_SIZE;

const payloadInfo = utf8('parcel e2ee v1 payload');

function checkLength(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative safe integer, not ${n}`);
}

/** Chunks in a container of L plaintext bytes: an empty file still has one (empty, final) chunk. */
export function chunkCount(plainLength: number): number {
  checkLength('plainLength', plainLength);
  return Math.max(1, Math.ceil(plainLength / CHUNK_SIZE));
}

/** C(L) = 24 + L + 16 × max(1, ceil(L / P)): the exact size registered with tus. */
export function ciphertextSize(plainLength: number): number {
  return HEADER_SIZE + plainLength + TAG_SIZE * chunkCount(plainLength);
}

/** The inverse of ciphertextSize; a length no plaintext encrypts to is refused. */
export function plaintextSize(cipherLength: number): number {
  checkLength('cipherLength', cipherLength);
  const body = cipherLength - HEADER_SIZE;
  const full = Math.floor(body / SEALED_CHUNK_SIZE);
  const rest = body % SEALED_CHUNK_SIZE;
  // The last chunk carries a tag of its own, and only a container of nothing ends in an empty chunk.
  const possible = body >= TAG_SIZE && (full === 0 ? rest >= TAG_SIZE : rest === 0 || rest > TAG_SIZE);
  if (!possible) throw new E2eeError('bad_length', `No container is ${cipherLength} bytes long`);
  return full * CHUNK_SIZE + (rest === 0 ? 0 : rest - TAG_SIZE);
}

export interface ChunkOffsets {
  index: number;
  final: boolean;
  /** [plainStart, plainEnd) in the plaintext. */
  plainStart: number;
  plainEnd: number;
  /** [cipherStart, cipherEnd) in the container, header included in the count. */
  cipherStart: number;
  cipherEnd: number;
}

/** Where chunk `index` of a container of L plaintext bytes lies on both sides: any chunk can be made or checked alone. */
export function chunkOffsets(plainLength: number, index: number): ChunkOffsets {
  const count = chunkCount(plainLength);
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) throw new RangeError(`A container of ${plainLength} bytes has no chunk ${index}`);
  const plainStart = index * CHUNK_SIZE;
  const plainEnd = Math.min(plainStart + CHUNK_SIZE, plainLength);
  const cipherStart = HEADER_SIZE + index * SEALED_CHUNK_SIZE;
  return { index, final: index === count - 1, plainStart, plainEnd, cipherStart, cipherEnd: cipherStart + (plainEnd - plainStart) + TAG_SIZE };
}

export const newSalt = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(SALT_SIZE));

/** The 24-byte header; a file's salt must be kept (it is in the sealed metadata) for a resumed upload to re-encrypt the same bytes. */
export function createHeader(salt: Uint8Array = newSalt()): Uint8Array<ArrayBuffer> {
  if (salt.length !== SALT_SIZE) throw new RangeError(`A salt is ${SALT_SIZE} bytes, not ${salt.length}`);
  const header = new Uint8Array(HEADER_SIZE);
  header.set(MAGIC, 0);
  header[4] = FORMAT_VERSION;
  header[5] = CHUNK_SIZE_LOG2;
  header.set(salt, 8);
  return header;
}

export interface ContainerHeader {
  /** The 24 header bytes: every chunk's additional data. */
  bytes: Uint8Array<ArrayBuffer>;
  version: number;
  chunkSize: number;
  salt: Uint8Array<ArrayBuffer>;
}

/** Reads the first 24 bytes. Only what this version writes is accepted: there is nothing to negotiate. */
export function parseHeader(bytes: Uint8Array): ContainerHeader {
  if (bytes.length < HEADER_SIZE) {
    throw new E2eeError('truncated', `A container starts with a ${HEADER_SIZE}-byte header; there are only ${bytes.length} bytes`);
  }
  const header = new Uint8Array(bytes.subarray(0, HEADER_SIZE));
  if (MAGIC.some((b, i) => header[i] !== b)) throw new E2eeError('bad_header', 'This is not an encrypted parcel file (wrong magic)');
  if (header[4] !== FORMAT_VERSION) throw new E2eeError('bad_header', `Unknown container version ${header[4]}`);
  if (header[5] !== CHUNK_SIZE_LOG2) throw new E2eeError('bad_header', `Unsupported chunk size 2^${header[5]}`);
  if (header[6] !== 0 || header[7] !== 0) throw new E2eeError('bad_header', 'The reserved header bytes are not zero');
  return { bytes: header, version: FORMAT_VERSION, chunkSize: CHUNK_SIZE, salt: header.slice(8, HEADER_SIZE) };
}

/**
 * A file's AES-256-GCM payload key: HKDF-SHA256 from the link's content key with the header salt as HKDF salt.
 * The random salt makes every file's key its own, so the chunk nonces (which only count) never repeat under one key.
 */
export async function payloadKey(contentKey: CryptoKey, salt: Uint8Array): Promise<CryptoKey> {
  if (salt.length !== SALT_SIZE) throw new RangeError(`A salt is ${SALT_SIZE} bytes, not ${salt.length}`);
  const params: HkdfParams = { name: 'HKDF', hash: 'SHA-256', salt: bufferSource(salt), info: payloadInfo };
  return crypto.subtle.deriveKey(params, contentKey, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** 11-byte big-endian chunk index, then 1 for the final chunk or 0: a chunk opens only at its own place and role. */
export function chunkNonce(index: number, final: boolean): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`A chunk index must be a non-negative safe integer, not ${index}`);
  const nonce = new Uint8Array(12);
  const view = new DataView(nonce.buffer);
  view.setUint32(3, Math.floor(index / 2 ** 32));
  view.setUint32(7, index >>> 0);
  nonce[11] = final ? 1 : 0;
  return nonce;
}

function checkHeaderBytes(header: Uint8Array): void {
  if (header.length !== HEADER_SIZE) throw new RangeError(`The additional data is the ${HEADER_SIZE}-byte header, not ${header.length} bytes`);
}

/** Seals chunk `index`: a non-final chunk holds exactly P bytes, the final one at most P. The same inputs always give the same bytes. */
export async function sealChunk(key: CryptoKey, header: Uint8Array, index: number, plaintext: Uint8Array, final: boolean): Promise<Uint8Array<ArrayBuffer>> {
  checkHeaderBytes(header);
  if (final ? plaintext.length > CHUNK_SIZE : plaintext.length !== CHUNK_SIZE) {
    throw new RangeError(`A ${final ? 'final' : 'non-final'} chunk cannot hold ${plaintext.length} bytes`);
  }
  const params: AesGcmParams = { name: 'AES-GCM', iv: chunkNonce(index, final), additionalData: bufferSource(header) };
  return new Uint8Array(await crypto.subtle.encrypt(params, key, bufferSource(plaintext)));
}

/** Opens chunk `index`, or refuses it as `tampered`: GCM cannot tell a changed byte from a chunk of another place, file or key. */
export async function openChunk(key: CryptoKey, header: Uint8Array, index: number, sealed: Uint8Array, final: boolean): Promise<Uint8Array<ArrayBuffer>> {
  checkHeaderBytes(header);
  if (sealed.length < TAG_SIZE) throw new E2eeError('truncated', `Chunk ${index} is ${sealed.length} bytes, shorter than its tag`);
  const params: AesGcmParams = { name: 'AES-GCM', iv: chunkNonce(index, final), additionalData: bufferSource(header) };
  try {
    return new Uint8Array(await crypto.subtle.decrypt(params, key, bufferSource(sealed)));
  } catch {
    // Before chunk 0 has opened, nothing has shown the key to be right (a recipient checks it first with assertKeyCheck).
    const causes = `it was changed, moved, or taken from another file${index === 0 ? ', or the key is wrong' : ''}`;
    throw new E2eeError('tampered', `Chunk ${index}${final ? ' (the last)' : ''} failed authentication: ${causes}`);
  }
}
