import { beforeAll, describe, expect, it } from 'vitest';
import { concatBytes } from './bytes.js';
import { CHUNK_SIZE, HEADER_SIZE, chunkOffsets, newSalt } from './container.js';
import { createDecryptingSource } from './decrypt.js';
import { createEncryptedSource } from './encrypt.js';
import { E2eeError, type E2eeErrorReason } from './errors.js';
import { deriveLinkKeys, newLinkKey, type LinkKeys } from './keys.js';
import { decryptAll, firstDifference, randomBytes } from './test-support.js';

const P = CHUNK_SIZE;

async function encrypt(keys: LinkKeys, plain: Uint8Array, salt = newSalt()) {
  const source = await createEncryptedSource(keys.content, { size: plain.length, read: async (s, e) => plain.slice(s, e) }, { salt });
  return { container: await source.read(0, source.size), salt: source.salt, size: plain.length };
}

/** Chunk `index` of a container of `size` plaintext bytes, sealed, as it lies on the wire. */
const chunkOf = (container: Uint8Array, size: number, index: number) => {
  const span = chunkOffsets(size, index);
  return container.subarray(span.cipherStart, span.cipherEnd);
};

let keys: LinkKeys;
// Four chunks: three of P bytes and a final one of 5.
const plain = randomBytes(3 * P + 5);
let file: Awaited<ReturnType<typeof encrypt>>;
const chunk = (index: number) => chunkOf(file.container, file.size, index);

beforeAll(async () => {
  keys = await deriveLinkKeys(newLinkKey());
  file = await encrypt(keys, plain);
});

/**
 * Decrypts `container` as `file` and expects it refused for `reason`, having passed on no more than the chunks
 * before `verifiedChunks`, and those exactly as they were sent.
 */
async function expectRefused(container: Uint8Array, reason: E2eeErrorReason, verifiedChunks: number, contentKey = keys.content) {
  const { emitted, error } = await decryptAll(contentKey, container, { salt: file.salt, size: file.size });
  expect(error).toBeInstanceOf(E2eeError);
  expect(error).toMatchObject({ reason });
  expect(emitted.length).toBeLessThanOrEqual(verifiedChunks * P);
  expect(firstDifference(emitted, plain.subarray(0, emitted.length))).toBe(-1);
  return error as E2eeError;
}

describe('the decrypting stream refuses truncation', () => {
  it('when the final chunk was dropped', async () => {
    await expectRefused(file.container.subarray(0, chunkOffsets(file.size, 3).cipherStart), 'truncated', 3);
  });

  it('when the data ends inside a chunk', async () => {
    await expectRefused(file.container.subarray(0, chunkOffsets(file.size, 2).cipherStart + 1000), 'truncated', 2);
  });

  it('when the data ends inside the final chunk', async () => {
    await expectRefused(file.container.subarray(0, file.container.length - 1), 'truncated', 3);
  });

  it('when only the header arrived', async () => {
    await expectRefused(file.container.subarray(0, HEADER_SIZE), 'truncated', 0);
  });

  it('when the data ends inside the header', async () => {
    await expectRefused(file.container.subarray(0, 10), 'truncated', 0);
  });

  it('when the body is empty', async () => {
    await expectRefused(new Uint8Array(0), 'truncated', 0);
  });

  it('when a full-size chunk not sealed as final ends the data', async () => {
    const twoChunks = await encrypt(keys, plain.subarray(0, 2 * P));
    const firstOnly = twoChunks.container.subarray(0, HEADER_SIZE + P + 16);
    // Told the file is one chunk long, the stream must not take chunk 0 (not sealed as final) for the whole file.
    const { emitted, error } = await decryptAll(keys.content, firstOnly, { salt: twoChunks.salt, size: P });
    expect(error).toMatchObject({ reason: 'tampered' });
    expect(emitted.length).toBe(0);
  });
});

describe('the decrypting stream refuses appended data', () => {
  it('of one byte, holding back the final chunk', async () => {
    await expectRefused(concatBytes(file.container, new Uint8Array([0])), 'trailing_data', 3);
  });

  it('of a copy of the final chunk', async () => {
    await expectRefused(concatBytes(file.container, chunk(3)), 'trailing_data', 3);
  });

  it('after a full-size final chunk', async () => {
    const twoChunks = await encrypt(keys, plain.subarray(0, 2 * P));
    const { emitted, error } = await decryptAll(keys.content, concatBytes(twoChunks.container, chunkOf(twoChunks.container, 2 * P, 1)), twoChunks);
    expect(error).toMatchObject({ reason: 'trailing_data' });
    expect(emitted.length).toBeLessThanOrEqual(P);
  });
});

describe('the decrypting stream refuses chunks out of place', () => {
  const header = () => file.container.subarray(0, HEADER_SIZE);

  it('when two chunks are swapped', async () => {
    await expectRefused(concatBytes(header(), chunk(0), chunk(2), chunk(1), chunk(3)), 'tampered', 1);
  });

  it('when a chunk is repeated in place of the next', async () => {
    await expectRefused(concatBytes(header(), chunk(0), chunk(1), chunk(1), chunk(3)), 'tampered', 2);
  });

  it('when a chunk is inserted twice', async () => {
    await expectRefused(concatBytes(header(), chunk(0), chunk(1), chunk(1), chunk(2), chunk(3)), 'tampered', 2);
  });

  it('when a middle chunk is dropped', async () => {
    await expectRefused(concatBytes(header(), chunk(0), chunk(2), chunk(3)), 'tampered', 1);
  });

  it('when the first chunk is repeated as the final one', async () => {
    await expectRefused(concatBytes(header(), chunk(0), chunk(1), chunk(2), chunk(0)), 'tampered', 3);
  });
});

describe('the decrypting stream refuses a flipped bit', () => {
  const start = (index: number) => chunkOffsets(3 * P + 5, index).cipherStart;

  it.each([
    ['in the magic', 0, 'bad_header', 0],
    ['in the version', 4, 'bad_header', 0],
    ['in the chunk size', 5, 'bad_header', 0],
    ['in a reserved byte', 7, 'bad_header', 0],
    ['in the first salt byte', 8, 'tampered', 0],
    ['in the last salt byte', 23, 'tampered', 0],
    ['at the start of chunk 0', start(0), 'tampered', 0],
    ['in the middle of chunk 1', start(1) + 500_000, 'tampered', 1],
    ["in chunk 2's tag", start(3) - 1, 'tampered', 2],
    ['in the final chunk', start(3) + 2, 'tampered', 3],
    ["in the final chunk's tag", 3 * P + 5 + 24 + 4 * 16 - 1, 'tampered', 3],
  ] as const)('%s', async (_where, at, reason, verifiedChunks) => {
    const flipped = file.container.slice();
    flipped[at]! ^= 0x01;
    await expectRefused(flipped, reason, verifiedChunks);
  });
});

describe('the decrypting stream refuses what belongs elsewhere', () => {
  it('a chunk from another file of the same transfer', async () => {
    const other = await encrypt(keys, plain);
    const header = file.container.subarray(0, HEADER_SIZE);
    await expectRefused(concatBytes(header, chunk(0), chunkOf(other.container, other.size, 1), chunk(2), chunk(3)), 'tampered', 1);
  });

  it('another file of the same transfer in place of this one', async () => {
    const other = await encrypt(keys, randomBytes(file.size));
    const error = await expectRefused(other.container, 'tampered', 0);
    expect(error.message).toMatch(/another file/);
  });

  it("another transfer's file, even one sealed with the same salt", async () => {
    const otherKeys = await deriveLinkKeys(newLinkKey());
    const other = await encrypt(otherKeys, plain, file.salt);
    await expectRefused(other.container, 'tampered', 0);
  });

  it("a chunk from another transfer's file", async () => {
    const otherKeys = await deriveLinkKeys(newLinkKey());
    const other = await encrypt(otherKeys, plain, file.salt);
    const header = file.container.subarray(0, HEADER_SIZE);
    await expectRefused(concatBytes(header, chunk(0), chunk(1), chunkOf(other.container, other.size, 2), chunk(3)), 'tampered', 2);
  });

  it('the right file under a wrong key', async () => {
    const wrong = await deriveLinkKeys(newLinkKey());
    const error = await expectRefused(file.container, 'tampered', 0, wrong.content);
    expect(error.message).toMatch(/key is wrong/);
  });
});

describe('random access to the plaintext (createDecryptingSource)', () => {
  /** The container as a store of ciphertext that records which ranges were asked for, and can be made to lie. */
  function store(container: Uint8Array, change: (bytes: Uint8Array, start: number) => Uint8Array = (b) => b) {
    const asked: [number, number][] = [];
    const read = async (start: number, end: number) => {
      asked.push([start, end]);
      return change(container.slice(start, end), start);
    };
    return { asked, read };
  }

  it('reads any range, fetching only the chunks under it, and re-encrypts to the same plaintext under another key', async () => {
    const cipher = store(file.container);
    const source = await createDecryptingSource(keys.content, { salt: file.salt, size: file.size }, cipher.read);
    expect(source.size).toBe(plain.length);
    expect(await source.read(P - 3, P + 7)).toEqual(plain.subarray(P - 3, P + 7));
    expect(cipher.asked).toEqual([[chunkOffsets(file.size, 0).cipherStart, chunkOffsets(file.size, 1).cipherEnd]]);
    expect(await source.read(3 * P, 3 * P + 5)).toEqual(plain.subarray(3 * P));
    expect(await source.read(5, 5)).toEqual(new Uint8Array(0));

    // Sent on as a transfer would be: encrypted again under a new key, from the decrypting source, chunk by chunk.
    const other = await deriveLinkKeys(newLinkKey());
    const reencrypted = await createEncryptedSource(other.content, source);
    const { emitted, error } = await decryptAll(other.content, await reencrypted.read(0, reencrypted.size), { salt: reencrypted.salt, size: plain.length });
    expect(error).toBeUndefined();
    expect(firstDifference(emitted, plain)).toBe(-1);
  });

  it('refuses a changed byte, a chunk of the wrong place, a short answer, the wrong key and the wrong salt', async () => {
    const expected = { salt: file.salt, size: file.size };
    const reason = async (make: () => Promise<{ read: (s: number, e: number) => Promise<Uint8Array> }>, start = P, end = P + 10) => {
      const source = await make();
      return (await (source.read(start, end) as Promise<Uint8Array>).then(() => null, (e: unknown) => e)) as E2eeError | RangeError | null;
    };
    const flipped = store(file.container, (b) => b.map((v, i) => (i === 100 ? v ^ 1 : v)));
    expect(((await reason(() => createDecryptingSource(keys.content, expected, flipped.read))) as E2eeError).reason).toBe('tampered');
    // Chunk 2's bytes where chunk 1 was asked for: the index is bound, so it does not open.
    const moved = store(file.container, (b, start) => (start === chunkOffsets(file.size, 1).cipherStart ? chunk(2).slice() : b));
    expect(((await reason(() => createDecryptingSource(keys.content, expected, moved.read))) as E2eeError).reason).toBe('tampered');
    const short = store(file.container, (b) => b.subarray(0, b.length - 1));
    expect(((await reason(() => createDecryptingSource(keys.content, expected, short.read))) as E2eeError).reason).toBe('truncated');
    const wrongKey = (await deriveLinkKeys(newLinkKey())).content;
    expect(((await reason(() => createDecryptingSource(wrongKey, expected, store(file.container).read))) as E2eeError).reason).toBe('tampered');
    const wrongSalt = { salt: newSalt(), size: file.size };
    expect(((await reason(() => createDecryptingSource(keys.content, wrongSalt, store(file.container).read))) as E2eeError).reason).toBe('tampered');
    expect(await reason(() => createDecryptingSource(keys.content, expected, store(file.container).read), 0, file.size + 1)).toBeInstanceOf(RangeError);
  });
});
