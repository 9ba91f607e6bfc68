import { describe, expect, it } from 'vitest';
import { apiError, json, noContent, stubFetch } from '../../test/fetch-stub';
import { signedIn } from '../../test/fixtures';
import { UploadTokenExpiredError } from '../../lib/uploads/upload-session';
import { DraftSession, draftStorageKey } from './draft-session';

const now = Date.parse('2026-11-22T10:00:00.000Z');
const inTwoHours = new Date(now + 2 * 3600_000).toISOString();

function target(id: string, name: string, size: number, expiresAt = inTwoHours) {
  return { id, name, size, uploadToken: `tok_${id}`, uploadTokenExpiresAt: expiresAt };
}

type FilesBody = { files: { name: string; size: number }[]; imports?: { url: string; name?: string }[] };

function draftRoutes() {
  let next = 1;
  const registered = (body: unknown) => {
    const { files, imports = [] } = body as FilesBody;
    return {
      files: files.map((f) => target(`fi_${next++}`, f.name, f.size)),
      imports: imports.map((i) => ({ fileId: `fi_${next++}`, name: i.name ?? 'download', size: null, source: i.url, status: 'importing' })),
    };
  };
  return {
    ...signedIn('free'),
    'POST /api/v1/transfers': ({ body }: { body: unknown }) =>
      json({ id: 'tr_1', slug: 'abc', expiresAt: inTwoHours, maxBytes: 2_000_000_000, tusEndpoint: 'http://localhost:8080/files/', ...registered(body) }, 201),
    'POST /api/v1/transfers/:id/files': ({ body }: { body: unknown }) => json({ tusEndpoint: 'http://localhost:8080/files/', ...registered(body) }, 201),
    'DELETE /api/v1/transfers/:id/files/:fileId': noContent,
  };
}

describe('DraftSession', () => {
  it('creates the draft with the first batch, adds later batches to it and removes files from it', async () => {
    const network = stubFetch(draftRoutes());
    const session = new DraftSession({ workspaceId: 'ws_1', now: () => now });

    await session.registerFiles([
      { key: 'a', name: 'a.txt', size: 3, mimeType: 'text/plain' },
      { key: 'b', name: 'b.jpg', size: 5, path: 'photos/2026' },
    ]);
    expect(network.requestsTo('POST /api/v1/transfers')).toHaveLength(1);
    expect(network.requestsTo('POST /api/v1/transfers')[0]!.body).toEqual({
      files: [
        { name: 'a.txt', size: 3, mimeType: 'text/plain', path: null },
        { name: 'b.jpg', size: 5, path: 'photos/2026' },
      ],
    });
    expect(session.transferId).toBe('tr_1');

    await session.registerFiles([{ key: 'c', name: 'c.txt', size: 1 }]);
    expect(network.requestsTo('POST /api/v1/transfers')).toHaveLength(1);
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/files')[0]!.body).toEqual({ files: [{ name: 'c.txt', size: 1, path: null }] });
    expect(await session.tokenFor('c')).toBe('tok_fi_3');

    await session.removeFile('b');
    expect(network.requestsTo('DELETE /api/v1/transfers/tr_1/files/fi_2')).toHaveLength(1);
    expect(session.has('b')).toBe(false);
  });

  it('puts a batch added while the draft is being created into that draft', async () => {
    const network = stubFetch(draftRoutes());
    const session = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    const first = session.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);
    const second = session.registerFiles([{ key: 'b', name: 'b.txt', size: 4 }]);
    await Promise.all([first, second]);
    expect(network.requestsTo('POST /api/v1/transfers')).toHaveLength(1);
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/files')).toHaveLength(1);
  });

  it('creates the draft with a URL import when it comes first, and puts files added meanwhile into it', async () => {
    const network = stubFetch(draftRoutes());
    const session = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    const importing = session.addImports([{ url: 'https://downloads.example.com/a.bin', name: 'a.bin' }]);
    const uploading = session.registerFiles([{ key: 'b', name: 'b.txt', size: 4 }]);
    const [entries] = await Promise.all([importing, uploading]);

    expect(entries).toEqual([{ fileId: 'fi_1', name: 'a.bin', size: null, source: 'https://downloads.example.com/a.bin', status: 'importing' }]);
    expect(network.requestsTo('POST /api/v1/transfers')).toHaveLength(1);
    expect(network.requestsTo('POST /api/v1/transfers')[0]!.body).toEqual({ files: [], imports: [{ url: 'https://downloads.example.com/a.bin', name: 'a.bin' }] });
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/files')[0]!.body).toEqual({ files: [{ name: 'b.txt', size: 4, path: null }] });
    expect(session.transferId).toBe('tr_1');

    await session.addImports([{ url: 'https://downloads.example.com/c.bin' }]);
    expect(network.requestsTo('POST /api/v1/transfers')).toHaveLength(1);
    expect(network.requestsTo('POST /api/v1/transfers/tr_1/files')[1]!.body).toEqual({ files: [], imports: [{ url: 'https://downloads.example.com/c.bin' }] });

    await session.removeImport('fi_1');
    expect(network.requestsTo('DELETE /api/v1/transfers/tr_1/files/fi_1')).toHaveLength(1);
  });

  it('remembers a draft that holds only imports, so a later visit finds it', async () => {
    stubFetch(draftRoutes());
    const first = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    await first.addImports([{ url: 'https://downloads.example.com/a.bin' }]);
    const later = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    expect(later.remembered()).toEqual({ ownerId: 'tr_1', files: {} });
  });

  it('renews a token close to expiry and uses the new one', async () => {
    const soon = new Date(now + 5 * 60_000).toISOString();
    const network = stubFetch({
      ...draftRoutes(),
      'POST /api/v1/transfers': json(
        {
          id: 'tr_1',
          slug: 's',
          expiresAt: inTwoHours,
          maxBytes: 1,
          tusEndpoint: 'http://localhost:8080/files/',
          files: [target('fi_1', 'a.txt', 3, soon)],
          imports: [],
        },
        201,
      ),
      'POST /api/uploads/token': json({ uploadToken: 'tok_fresh', expiresAt: inTwoHours }),
    });
    const session = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    await session.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);

    expect(await session.tokenFor('a')).toBe('tok_fresh');
    const renewals = network.requestsTo('POST /api/uploads/token');
    expect(renewals).toHaveLength(1);
    expect(renewals[0]!.headers.get('x-service-upload-token')).toBe('tok_fi_1');
    // Fresh now: no second renewal.
    expect(await session.tokenFor('a')).toBe('tok_fresh');
    expect(network.requestsTo('POST /api/uploads/token')).toHaveLength(1);
  });

  it('renews a token the tus server refused', async () => {
    stubFetch({ ...draftRoutes(), 'POST /api/uploads/token': json({ uploadToken: 'tok_fresh', expiresAt: inTwoHours }) });
    const session = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    await session.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);
    expect(await session.tokenFor('a')).toBe('tok_fi_1');
    session.markTokenRejected('a');
    expect(await session.tokenFor('a')).toBe('tok_fresh');
  });

  it('marks the file failed with a message when its token can no longer be renewed', async () => {
    stubFetch({ ...draftRoutes(), 'POST /api/uploads/token': apiError(401, 'unauthorized', 'Upload token expired') });
    const session = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    await session.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);
    session.markTokenRejected('a');
    await expect(session.tokenFor('a')).rejects.toBeInstanceOf(UploadTokenExpiredError);
    expect(session.failureOf('a')).toMatch(/expired/);
  });

  it('remembers the draft per workspace so a later visit can resume it', async () => {
    stubFetch(draftRoutes());
    const first = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    await first.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);
    expect(window.localStorage.getItem(draftStorageKey('ws_1'))).toContain('tr_1');
    expect(new DraftSession({ workspaceId: 'ws_2' }).remembered()).toBeNull();

    const network = stubFetch(draftRoutes());
    const later = new DraftSession({ workspaceId: 'ws_1', now: () => now });
    const remembered = later.remembered();
    expect(remembered?.ownerId).toBe('tr_1');
    later.resume(remembered!);
    expect(later.filesNotIn([]).map((f) => f.name)).toEqual(['a.txt']);
    // The same file added again is not registered again: its upload continues.
    await later.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);
    expect(network.requests.filter((r) => r.path.startsWith('/api/v1/transfers'))).toHaveLength(0);
    expect(await later.tokenFor('a')).toBe('tok_fi_1');

    later.forget();
    expect(window.localStorage.getItem(draftStorageKey('ws_1'))).toBeNull();
  });
});
