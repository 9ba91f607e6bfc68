import { describe, expect, it } from 'vitest';
import { ciphertextSize, createDecryptStream, deriveLinkKeys, openFileMeta, openTransferMeta, parseLinkFragment } from '../../../../crypto';
import { json, stubFetch, type StubRequest } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { DraftSession } from '../draft-session';
import { ENCRYPTED_REQUEST_BYTES, SEALED_FILE_NAME } from './encrypted-uploads';

const inTwoHours = new Date(Date.now() + 2 * 3600_000).toISOString();

function draftRoutes() {
  let next = 1;
  const registered = (body: unknown) => ({
    files: (body as { files: { name: string; size: number }[] }).files.map((f) => {
      const id = `fi_${next++}`;
      return { id, name: f.name, size: f.size, uploadToken: `tok_${id}`, uploadTokenExpiresAt: inTwoHours };
    }),
    imports: [],
  });
  return {
    ...signedIn('free'),
    'POST /api/v1/transfers': ({ body }: StubRequest) =>
      json({ id: 'tr_1', slug: 'abc', expiresAt: inTwoHours, maxBytes: 2_000_000_000, tusEndpoint: 'http://localhost:8080/files/', ...registered(body) }, 201),
    'POST /api/v1/transfers/:id/files': ({ body }: StubRequest) => json({ tusEndpoint: 'http://localhost:8080/files/', ...registered(body) }, 201),
    'POST /api/v1/transfers/:id/files/:fileId/sealed': json({ stored: true }),
  };
}

type Reader = { openFile(input: Blob, chunkSize: number): Promise<{ size: number; slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> }> };
const readerOf = (options: Record<string, unknown>) => options.fileReader as Reader;
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
/** Megabytes compared at once (toEqual walks them element by element, seconds per megabyte). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

// Past one 1 MiB chunk, so reads cross a chunk edge.
const plain = new Uint8Array(1024 * 1024 + 4099).map((_, i) => (i * 31) & 255);
const report = { key: 'uppy-report', name: 'report.pdf', size: plain.length, mimeType: 'application/pdf', path: 'Q3/board' };

describe('An end-to-end encrypted draft', { timeout: 20_000 }, () => {
  it('registers each file under a neutral name with its container size, and tus reads ciphertext from any offset', async () => {
    const network = stubFetch(draftRoutes());
    const session = new DraftSession({ workspaceId: 'ws_1' });
    session.setEncrypted(true);
    await session.registerFiles([report]);

    expect(network.requestsTo('POST /api/v1/transfers')[0]!.body).toEqual({
      files: [{ name: SEALED_FILE_NAME, size: ciphertextSize(plain.length), mimeType: 'application/octet-stream', path: null }],
      e2ee: true,
    });
    // The sender's own list still shows the file as it is.
    expect(session.filesNotIn([])[0]).toMatchObject({ name: 'report.pdf', path: 'Q3/board', size: plain.length });

    const options = session.tusOptionsFor(report);
    expect(options).toMatchObject({ chunkSize: ENCRYPTED_REQUEST_BYTES, allowedMetaFields: [] });
    const source = await readerOf(options).openFile(new Blob([plain]), ENCRYPTED_REQUEST_BYTES);
    expect(source.size).toBe(ciphertextSize(plain.length));
    const whole = await bytesOf((await source.slice(0, source.size)).value);
    const tail = await source.slice(1_000_003, source.size + 100);
    expect(tail.done).toBe(true);
    expect(sameBytes(await bytesOf(tail.value), whole.subarray(1_000_003))).toBe(true);

    const keys = await deriveLinkKeys(parseLinkFragment(session.encryption!.fragment));
    const salt = whole.subarray(8, 24);
    const opened = await new Response(new Blob([whole]).stream().pipeThrough(createDecryptStream(keys.content, { salt, size: plain.length }))).arrayBuffer();
    expect(sameBytes(new Uint8Array(opened), plain)).toBe(true);
  });

  it('seals each file and the note, finalizes with e2eeMeta, and never sends a plaintext name or the key', async () => {
    const network = stubFetch(draftRoutes());
    const session = new DraftSession({ workspaceId: 'ws_1' });
    session.setEncrypted(true);
    await session.registerFiles([report]);
    await readerOf(session.tusOptionsFor(report)).openFile(new Blob([plain]), ENCRYPTED_REQUEST_BYTES);
    const e2eeMeta = await session.sealTransfer({ title: 'Board pack', message: 'For Thursday' });

    const [sealed] = network.requestsTo('POST /api/v1/transfers/tr_1/files/fi_1/sealed');
    const keys = await deriveLinkKeys(parseLinkFragment(session.encryption!.fragment));
    const { meta, thumb } = sealed!.body as { meta: string; thumb: string };
    expect(thumb).toBe('');
    expect(await openFileMeta(keys, 'tr_1', 'fi_1', meta)).toMatchObject({ name: 'Q3/board/report.pdf', type: 'application/pdf', size: plain.length });
    const opened = await openTransferMeta(keys, 'tr_1', e2eeMeta);
    expect(opened.note).toEqual({ title: 'Board pack', message: 'For Thursday' });
    expect(opened.manifest).toEqual([{ id: 'fi_1', salt: expect.any(Uint8Array), size: plain.length }]);

    const key = session.encryption!.fragment.slice(3);
    for (const request of network.requests) {
      const sent = `${request.url.href} ${JSON.stringify(Object.fromEntries(request.headers))} ${JSON.stringify(request.body)}`;
      for (const secret of ['report.pdf', 'Q3/board', 'Board pack', 'For Thursday', key]) expect(sent).not.toContain(secret);
    }
  });

  it('keeps the link key and each salt with the remembered draft, so a new tab resumes with the same bytes, and forgets them once sent', async () => {
    stubFetch(draftRoutes());
    const first = new DraftSession({ workspaceId: 'ws_1' });
    first.setEncrypted(true);
    await first.registerFiles([report]);
    const before = await readerOf(first.tusOptionsFor(report)).openFile(new Blob([plain]), ENCRYPTED_REQUEST_BYTES);

    const second = new DraftSession({ workspaceId: 'ws_1' });
    second.resume(second.remembered()!);
    expect(second.encryption!.fragment).toBe(first.encryption!.fragment);
    const after = await readerOf(second.tusOptionsFor(report)).openFile(new Blob([plain]), ENCRYPTED_REQUEST_BYTES);
    // A resume at an unaligned offset gets exactly the bytes the first tab would have sent.
    expect(await bytesOf((await after.slice(1_000_003, 1_050_000)).value)).toEqual(await bytesOf((await before.slice(1_000_003, 1_050_000)).value));

    second.forget();
    expect(window.localStorage.getItem('parcel.send.draft.ws_1')).toBeNull();
    expect(second.encryption).toBeNull();
  });

  it('is chosen before the first file only', async () => {
    stubFetch(draftRoutes());
    const session = new DraftSession({ workspaceId: 'ws_1' });
    await session.registerFiles([report]);
    expect(() => session.setEncrypted(true)).toThrow('before the first file');
    expect(session.tusOptionsFor(report)).toEqual({});
  });
});
