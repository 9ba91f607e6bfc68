import { describe, expect, it } from 'vitest';
import { toBase64url } from './base64url.js';
import {
  CHUNK_SIZE,
  HEADER_SIZE,
  SEALED_CHUNK_SIZE,
  chunkCount,
  chunkNonce,
  chunkOffsets,
  ciphertextSize,
  createHeader,
  openChunk,
  parseHeader,
  payloadKey,
  plaintextSize,
  sealChunk,
} from './container.js';
import { E2eeError } from './errors.js';
import { deriveLinkKeys, newLinkKey } from './keys.js';
import { firstDifference } from './test-support.js';

const P = CHUNK_SIZE;

describe('container sizes', () => {
  it('has 1 MiB chunks', () => {
    expect(P).toBe(1_048_576);
    expect(SEALED_CHUNK_SIZE).toBe(P + 16);
  });

  // C(L) = 24 + L + 16 × max(1, ceil(L / P)), written out by hand for each length.
  it.each([
    ['0', 0, 40],
    ['1', 1, 41],
    ['P-1', P - 1, 1_048_615],
    ['P', P, 1_048_616],
    ['P+1', P + 1, 1_048_633],
    ['3P', 3 * P, 3_145_800],
    ['2^32+1', 2 ** 32 + 1, 4_295_032_873],
    ['5 GiB', 5 * 2 ** 30, 5_368_791_064],
  ])('C(%s) = %d', (_name, plain, cipher) => {
    expect(ciphertextSize(plain)).toBe(cipher);
    expect(plaintextSize(cipher)).toBe(plain);
  });

  it.each([
    [0, 1],
    [1, 1],
    [P, 1],
    [P + 1, 2],
    [3 * P, 3],
    [3 * P + 5, 4],
  ])('a %d-byte file has %d chunks', (plain, chunks) => {
    expect(chunkCount(plain)).toBe(chunks);
  });

  it('inverts every length around the chunk edges', () => {
    for (const edge of [0, P, 2 * P, 7 * P])
      for (let d = -20; d <= 20; d++) {
        const plain = edge + d;
        if (plain >= 0) expect(plaintextSize(ciphertextSize(plain))).toBe(plain);
      }
  });

  it.each([
    ['nothing', 0],
    ['less than a header', 23],
    ['a header alone', HEADER_SIZE],
    ['a header and less than a tag', 39],
    ['a full chunk and one byte', HEADER_SIZE + SEALED_CHUNK_SIZE + 1],
    ['a full chunk and a bare tag', HEADER_SIZE + SEALED_CHUNK_SIZE + 16],
    ['two full chunks and a bare tag', HEADER_SIZE + 2 * SEALED_CHUNK_SIZE + 16],
  ])('refuses a container of %s (%d bytes)', (_name, cipher) => {
    expect(() => plaintextSize(cipher)).toThrow(expect.objectContaining({ name: 'E2eeError', reason: 'bad_length' }));
  });

  it('refuses lengths that are not byte counts', () => {
    expect(() => plaintextSize(-1)).toThrow(RangeError);
    expect(() => plaintextSize(40.5)).toThrow(RangeError);
    expect(() => ciphertextSize(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });

  it('places every chunk at 24 + i × (P + 16)', () => {
    const plain = 3 * P + 5;
    expect(chunkOffsets(plain, 0)).toEqual({ index: 0, final: false, plainStart: 0, plainEnd: P, cipherStart: 24, cipherEnd: 24 + P + 16 });
    expect(chunkOffsets(plain, 3)).toEqual({
      index: 3,
      final: true,
      plainStart: 3 * P,
      plainEnd: 3 * P + 5,
      cipherStart: 24 + 3 * (P + 16),
      cipherEnd: ciphertextSize(plain),
    });
    expect(chunkOffsets(0, 0)).toEqual({ index: 0, final: true, plainStart: 0, plainEnd: 0, cipherStart: 24, cipherEnd: 40 });
    expect(() => chunkOffsets(plain, 4)).toThrow(RangeError);
  });
});

describe('the header', () => {
  const salt = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);

  it('is magic "PCLE", version 1, log2 chunk size 20, two zero bytes and the salt', () => {
    const header = createHeader(salt);
    expect([...header]).toEqual([0x50, 0x43, 0x4c, 0x45, 1, 20, 0, 0, ...salt]);
    const parsed = parseHeader(header);
    expect(parsed).toMatchObject({ version: 1, chunkSize: P });
    expect(parsed.salt).toEqual(salt);
  });

  it('gets a random salt when given none', () => {
    expect(toBase64url(createHeader().subarray(8))).not.toBe(toBase64url(createHeader().subarray(8)));
  });

  it.each([
    ['a wrong magic', 0, 0x51],
    ['another version', 4, 2],
    ['another chunk size', 5, 16],
    ['a non-zero reserved byte', 6, 1],
    ['the other reserved byte set', 7, 0x80],
  ])('is refused with %s', (_name, at, value) => {
    const header = createHeader(salt);
    header[at] = value;
    expect(() => parseHeader(header)).toThrow(expect.objectContaining({ reason: 'bad_header' }));
  });

  it('is refused when shorter than 24 bytes', () => {
    expect(() => parseHeader(createHeader(salt).subarray(0, 23))).toThrow(expect.objectContaining({ reason: 'truncated' }));
  });
});

describe('chunks', () => {
  it('use the index as 11 big-endian bytes and the final flag as the nonce', () => {
    expect([...chunkNonce(0x01_0203_0405, true)]).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 1]);
    expect([...chunkNonce(7, false)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0]);
  });

  it('open only at their own index, role, header and key', async () => {
    const keys = await deriveLinkKeys(newLinkKey());
    const header = createHeader();
    const key = await payloadKey(keys.content, parseHeader(header).salt);
    const plain = new TextEncoder().encode('the last few bytes');
    const sealed = await sealChunk(key, header, 5, plain, true);
    expect(sealed.length).toBe(plain.length + 16);
    await expect(openChunk(key, header, 5, sealed, true)).resolves.toEqual(plain);

    const otherFilesKey = await payloadKey(keys.content, createHeader().subarray(8));
    await expect(openChunk(key, header, 4, sealed, true)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openChunk(key, header, 5, sealed, false)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openChunk(key, createHeader(), 5, sealed, true)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openChunk(otherFilesKey, header, 5, sealed, true)).rejects.toMatchObject({ reason: 'tampered' });
  });

  it('refuse to seal a non-final chunk of other than P bytes', async () => {
    const keys = await deriveLinkKeys(newLinkKey());
    const header = createHeader();
    const key = await payloadKey(keys.content, parseHeader(header).salt);
    await expect(sealChunk(key, header, 0, new Uint8Array(10), false)).rejects.toThrow(RangeError);
    await expect(sealChunk(key, header, 0, new Uint8Array(P + 1), true)).rejects.toThrow(RangeError);
  });

  it('are deterministic for one key, header and index, and differ between files', async () => {
    const keys = await deriveLinkKeys(newLinkKey());
    const plain = new Uint8Array(P).fill(7);
    const [a, b] = [createHeader(), createHeader()];
    const keyA = await payloadKey(keys.content, parseHeader(a).salt);
    const keyB = await payloadKey(keys.content, parseHeader(b).salt);
    const once = await sealChunk(keyA, a, 0, plain, false);
    expect(firstDifference(await sealChunk(keyA, a, 0, plain, false), once)).toBe(-1);
    expect(toBase64url((await sealChunk(keyB, b, 0, plain, false)).subarray(0, 64))).not.toBe(toBase64url(once.subarray(0, 64)));
  });

  it('errors are E2eeErrors with a reason and a message', () => {
    const error = new E2eeError('truncated', 'The data ended early');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'E2eeError', reason: 'truncated', message: 'The data ended early' });
  });
});
