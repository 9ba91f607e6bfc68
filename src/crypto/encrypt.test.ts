import { beforeAll, describe, expect, it } from 'vitest';
import { concatBytes } from './bytes.js';
import { CHUNK_SIZE, HEADER_SIZE, chunkOffsets, ciphertextSize, newSalt, openChunk, parseHeader, payloadKey } from './container.js';
import { blobSource, createEncryptedSource, type PlainSource } from './encrypt.js';
import { deriveLinkKeys, newLinkKey, type LinkKeys } from './keys.js';
import { decryptAll, firstDifference, randomBytes } from './test-support.js';

const P = CHUNK_SIZE;

const memorySource = (bytes: Uint8Array): PlainSource => ({ size: bytes.length, read: async (start, end) => bytes.slice(start, end) });

/** Reads a whole container the way tus does: fixed-size requests that ignore chunk edges. */
async function readInPieces(source: { size: number; read(start: number, end: number): Promise<Uint8Array> }, from = 0, piece = 777_777) {
  const parts: Uint8Array[] = [];
  for (let at = from; at < source.size; at += piece) parts.push(await source.read(at, Math.min(source.size, at + piece)));
  return concatBytes(...parts);
}

let keys: LinkKeys;
beforeAll(async () => {
  keys = await deriveLinkKeys(newLinkKey());
});

describe('a round trip through the encrypted source and the decrypting stream', () => {
  it.each([
    ['empty', 0],
    ['1 byte', 1],
    ['P-1', P - 1],
    ['P', P],
    ['P+1', P + 1],
    ['2P', 2 * P],
    ['3P+5', 3 * P + 5],
  ])('gives back a file of %s bytes', async (_name, size) => {
    const plain = randomBytes(size);
    const source = await createEncryptedSource(keys.content, memorySource(plain));
    expect(source.size).toBe(ciphertextSize(size));
    const container = await readInPieces(source);
    expect(container.length).toBe(ciphertextSize(size));
    expect(parseHeader(container).salt).toEqual(source.salt);

    const { emitted, error } = await decryptAll(keys.content, container, { salt: source.salt, size });
    expect(error).toBeUndefined();
    expect(emitted.length).toBe(size);
    expect(firstDifference(emitted, plain)).toBe(-1);
  });

  it('reads a Blob one slice at a time', async () => {
    const plain = randomBytes(P + 3);
    const source = await createEncryptedSource(keys.content, blobSource(new Blob([plain])));
    const { emitted, error } = await decryptAll(keys.content, await source.read(0, source.size), { salt: source.salt, size: plain.length });
    expect(error).toBeUndefined();
    expect(firstDifference(emitted, plain)).toBe(-1);
  });

  it('lets any one chunk be checked alone, at the offset the format gives', async () => {
    const plain = randomBytes(3 * P + 5);
    const source = await createEncryptedSource(keys.content, memorySource(plain));
    const key = await payloadKey(keys.content, source.salt);
    for (const index of [2, 3]) {
      const span = chunkOffsets(plain.length, index);
      const opened = await openChunk(key, source.header, index, await source.read(span.cipherStart, span.cipherEnd), span.final);
      expect(firstDifference(opened, plain.subarray(span.plainStart, span.plainEnd))).toBe(-1);
    }
  });
});

describe('resuming an upload', () => {
  const plain = randomBytes(3 * P + 5);
  const salt = newSalt();

  it('re-encrypts from an unaligned offset to the same bytes as a straight run', async () => {
    const straight = await readInPieces(await createEncryptedSource(keys.content, memorySource(plain), { salt }), 0, 5 * P);
    const offset = HEADER_SIZE + P + 7;
    // Two runs, as before and after a tab was closed: nothing is shared between them but the key and the salt.
    const before = await (await createEncryptedSource(keys.content, memorySource(plain), { salt })).read(0, offset);
    const after = await readInPieces(await createEncryptedSource(keys.content, memorySource(plain), { salt }), offset, 1_000_003);
    expect(firstDifference(concatBytes(before, after), straight)).toBe(-1);

    const { emitted, error } = await decryptAll(keys.content, concatBytes(before, after), { salt, size: plain.length });
    expect(error).toBeUndefined();
    expect(firstDifference(emitted, plain)).toBe(-1);
  });

  it('serves reads that start inside the header, end inside a tag, or are empty', async () => {
    const source = await createEncryptedSource(keys.content, memorySource(plain), { salt });
    const straight = await source.read(0, source.size);
    for (const [start, end] of [
      [10, 30],
      [HEADER_SIZE + P + 5, HEADER_SIZE + P + 20],
      [source.size - 3, source.size],
      [100, 100],
    ] as const) {
      expect(firstDifference(await source.read(start, end), straight.subarray(start, end))).toBe(-1);
    }
  });

  it('gives other bytes under another salt', async () => {
    const a = await (await createEncryptedSource(keys.content, memorySource(plain), { salt })).read(HEADER_SIZE, 100);
    const b = await (await createEncryptedSource(keys.content, memorySource(plain))).read(HEADER_SIZE, 100);
    expect(firstDifference(a, b)).not.toBe(-1);
  });

  it('refuses reads outside the container', async () => {
    const source = await createEncryptedSource(keys.content, memorySource(plain), { salt });
    await expect(source.read(-1, 10)).rejects.toThrow(RangeError);
    await expect(source.read(10, 5)).rejects.toThrow(RangeError);
    await expect(source.read(0, source.size + 1)).rejects.toThrow(RangeError);
  });

  it('notices a file that changed size while it was read', async () => {
    const shrunk: PlainSource = { size: plain.length, read: async (start, end) => plain.slice(start, Math.min(end, 2 * P)) };
    const source = await createEncryptedSource(keys.content, shrunk, { salt });
    await expect(source.read(0, source.size)).rejects.toMatchObject({ name: 'E2eeError', reason: 'bad_length' });
  });
});
