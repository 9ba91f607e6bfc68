import { beforeAll, describe, expect, it } from 'vitest';
import { fromBase64url } from './base64url.js';
import { newSalt } from './container.js';
import { deriveLinkKeys, newLinkKey, type LinkKeys } from './keys.js';
import {
  checkManifest,
  openFileMeta,
  openManifest,
  openThumbnail,
  openTransferMeta,
  openTransferNote,
  sealFileMeta,
  sealManifest,
  sealTransferMeta,
  sealThumbnail,
  sealTransferNote,
  type ManifestEntry,
} from './metadata.js';
import { SEAL_BUCKET, openBytes, openJson, padToBucket, sealBytes, sealJson } from './sealed.js';
import { randomBytes } from './test-support.js';

let keys: LinkKeys;
beforeAll(async () => {
  keys = await deriveLinkKeys(newLinkKey());
});

/** IV, padded plaintext, tag. */
const sealedLength = (sealed: string) => fromBase64url(sealed).length;
const bucketed = (buckets: number) => 12 + buckets * SEAL_BUCKET + 16;

describe('sealed file metadata', () => {
  const meta = { name: 'Quartalsbericht März.pdf', type: 'application/pdf', size: 5 * 2 ** 30, salt: newSalt() };

  it('opens for its transfer and file', async () => {
    const sealed = await sealFileMeta(keys, 'tr_1', 'fi_1', meta);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('Quartal');
    await expect(openFileMeta(keys, 'tr_1', 'fi_1', sealed)).resolves.toEqual(meta);
  });

  it.each([
    ['another file', 'tr_1', 'fi_2'],
    ['another transfer', 'tr_2', 'fi_1'],
    ['ids split differently', 'tr_1fi', '_1'],
  ])('does not open as %s', async (_name, transferId, fileId) => {
    const sealed = await sealFileMeta(keys, 'tr_1', 'fi_1', meta);
    await expect(openFileMeta(keys, transferId, fileId, sealed)).rejects.toMatchObject({ name: 'E2eeError', reason: 'tampered' });
  });

  it('does not open under another link key, or as a thumbnail', async () => {
    const sealed = await sealFileMeta(keys, 'tr_1', 'fi_1', meta);
    await expect(openFileMeta(await deriveLinkKeys(newLinkKey()), 'tr_1', 'fi_1', sealed)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openThumbnail(keys, 'tr_1', 'fi_1', sealed)).rejects.toMatchObject({ reason: 'tampered' });
  });

  it('does not open with a character changed', async () => {
    const sealed = await sealFileMeta(keys, 'tr_1', 'fi_1', meta);
    const at = 30;
    const changed = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    await expect(openFileMeta(keys, 'tr_1', 'fi_1', changed)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openFileMeta(keys, 'tr_1', 'fi_1', sealed.slice(0, 100))).rejects.toMatchObject({ reason: 'malformed' });
  });

  it('is padded to 256-byte buckets, so short and long names look the same', async () => {
    const withName = (name: string) => sealFileMeta(keys, 'tr_1', 'fi_1', { ...meta, name });
    expect(sealedLength(await withName('a'))).toBe(bucketed(1));
    expect(sealedLength(await withName('a'.repeat(150)))).toBe(bucketed(1));
    expect(sealedLength(await withName('a'.repeat(300)))).toBe(bucketed(2));
    await expect(openFileMeta(keys, 'tr_1', 'fi_1', await withName('a'.repeat(300)))).resolves.toMatchObject({ name: 'a'.repeat(300) });
  });

  it('is sealed with a fresh IV each time', async () => {
    expect(await sealFileMeta(keys, 'tr_1', 'fi_1', meta)).not.toBe(await sealFileMeta(keys, 'tr_1', 'fi_1', meta));
  });

  it('refuses an authentic value of the wrong shape', async () => {
    const binding = { purpose: 'file meta', transferId: 'tr_1', fileId: 'fi_1' };
    const sealed = await sealJson(keys.meta, { name: 'x', type: 'text/plain', size: -1, salt: 'AAAA' }, binding);
    await expect(openFileMeta(keys, 'tr_1', 'fi_1', sealed)).rejects.toMatchObject({ reason: 'malformed' });
  });
});

describe('padding', () => {
  it.each([
    [0, 256],
    [1, 256],
    [252, 256],
    [253, 512],
    [32 * 1024, 32 * 1024 + 256],
  ])('frames %d bytes in %d', (length, padded) => {
    expect(padToBucket(new Uint8Array(length)).length).toBe(padded);
  });

  it('is removed exactly, trailing zeros of the value kept', async () => {
    const bytes = new Uint8Array([1, 2, 0, 0]);
    const binding = { purpose: 'test', transferId: 'tr_1' };
    await expect(openBytes(keys.meta, await sealBytes(keys.meta, bytes, binding), binding)).resolves.toEqual(bytes);
    await expect(openBytes(keys.meta, await sealBytes(keys.meta, new Uint8Array(0), binding), binding)).resolves.toEqual(new Uint8Array(0));
  });
});

describe('sealed thumbnails and notes', () => {
  it('seal a 32 KB thumbnail bound to its file', async () => {
    const image = randomBytes(32 * 1024);
    const sealed = await sealThumbnail(keys, 'tr_1', 'fi_1', image);
    expect(sealedLength(sealed)).toBe(bucketed(129));
    await expect(openThumbnail(keys, 'tr_1', 'fi_1', sealed)).resolves.toEqual(image);
    await expect(openThumbnail(keys, 'tr_1', 'fi_2', sealed)).rejects.toMatchObject({ reason: 'tampered' });
  });

  it("seal the transfer's title and message bound to the transfer", async () => {
    const sealed = await sealTransferNote(keys, 'tr_1', { title: 'Fotos', message: 'Hallo!' });
    await expect(openTransferNote(keys, 'tr_1', sealed)).resolves.toEqual({ title: 'Fotos', message: 'Hallo!' });
    await expect(openTransferNote(keys, 'tr_1', await sealTransferNote(keys, 'tr_1', {}))).resolves.toEqual({});
    await expect(openTransferNote(keys, 'tr_2', sealed)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openJson(keys.meta, sealed, { purpose: 'file meta', transferId: 'tr_1' })).rejects.toMatchObject({ reason: 'tampered' });
  });
});

describe('the manifest', () => {
  const files: ManifestEntry[] = [
    { id: 'fi_a', salt: newSalt(), size: 10 },
    { id: 'fi_b', salt: newSalt(), size: 0 },
    { id: 'fi_c', salt: newSalt(), size: 3 * 2 ** 20 + 5 },
  ];

  it('opens as sealed, for its transfer only', async () => {
    const sealed = await sealManifest(keys, 'tr_1', files);
    await expect(openManifest(keys, 'tr_1', sealed)).resolves.toEqual(files);
    await expect(openManifest(keys, 'tr_2', sealed)).rejects.toMatchObject({ reason: 'tampered' });
  });

  it('agrees with the files as sent, in any order', async () => {
    const manifest = await openManifest(keys, 'tr_1', await sealManifest(keys, 'tr_1', files));
    expect(checkManifest(manifest, [...files].reverse())).toEqual({ ok: true, added: [], dropped: [], swapped: [] });
  });

  it('catches a dropped file', () => {
    expect(checkManifest(files, [files[0]!, files[2]!])).toEqual({ ok: false, added: [], dropped: ['fi_b'], swapped: [] });
  });

  it('catches an added file, and a file listed twice', () => {
    const extra = { id: 'fi_x', salt: newSalt(), size: 10 };
    expect(checkManifest(files, [...files, extra, files[0]!])).toEqual({ ok: false, added: ['fi_x', 'fi_a'], dropped: [], swapped: [] });
  });

  it("catches a file swapped for another's bytes (salt) or cut short (size)", () => {
    const listed = [{ ...files[0]!, salt: files[1]!.salt }, files[1]!, { ...files[2]!, size: 2 ** 20 }];
    expect(checkManifest(files, listed)).toEqual({ ok: false, added: [], dropped: [], swapped: ['fi_a', 'fi_c'] });
  });

  it('catches two files whose ids were exchanged', () => {
    const listed = [{ ...files[0]!, id: 'fi_b' }, { ...files[1]!, id: 'fi_a' }, files[2]!];
    expect(checkManifest(files, listed).swapped).toEqual(['fi_b', 'fi_a']);
  });

  it('lists each file once', async () => {
    expect(() => sealManifest(keys, 'tr_1', [files[0]!, files[0]!])).toThrow(RangeError);
  });
});

describe('the transfer metadata (e2eeMeta)', () => {
  it('opens with the link key, and names a wrong key before anything else', async () => {
    const keys = await deriveLinkKeys(newLinkKey());
    const manifest = [{ id: 'fi_1', salt: newSalt(), size: 12 }];
    const text = await sealTransferMeta(keys, 'tr_1', { manifest, note: { title: 'Contract', message: 'Sign page 3' } });
    expect(JSON.parse(text)).toMatchObject({ v: 1 });
    expect(text).not.toContain('Contract');
    const opened = await openTransferMeta(keys, 'tr_1', text);
    expect(opened.note).toEqual({ title: 'Contract', message: 'Sign page 3' });
    expect(opened.manifest).toEqual(manifest);
    expect((await openTransferMeta(keys, 'tr_1', await sealTransferMeta(keys, 'tr_1', { manifest, note: null }))).note).toBeNull();

    const other = await deriveLinkKeys(newLinkKey());
    await expect(openTransferMeta(other, 'tr_1', text)).rejects.toMatchObject({ reason: 'wrong_key' });
    await expect(openTransferMeta(keys, 'tr_2', text)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(openTransferMeta(keys, 'tr_1', '{"v":2}')).rejects.toMatchObject({ reason: 'malformed' });
  });
});
