import type { Collection, Folder, ListedCollectionFile } from '../../../../contract/collections';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';

const day = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export function ownedCollection(overrides: Partial<Collection> = {}): Collection {
  return {
    id: 'col_1',
    title: 'Spring lookbook',
    slug: 'Sp7kQ2mR8sT1vW3xY7zA0b',
    description: null,
    visibility: 'private',
    url: 'http://localhost:8080/c/Sp7kQ2mR8sT1vW3xY7zA0b',
    customLink: false,
    reviewMail: 'daily',
    sizeBytes: 0,
    fileCount: 0,
    coverFileId: null,
    expiresAt: null,
    createdAt: ago(10 * day),
    updatedAt: ago(day),
    ...overrides,
  };
}

export function folder(id: string, path: string, parentId: string | null): Folder {
  const names = path.split('/');
  return { id, name: names.at(-1)!, path, parentId, depth: names.length - 1 };
}

export function collectionFile(overrides: Partial<ListedCollectionFile> & { id: string; name: string }): ListedCollectionFile {
  return {
    sizeBytes: 1_000,
    mimeType: 'application/octet-stream',
    folderId: null,
    hasThumbnail: false,
    crc32: '00000000',
    state: 'complete',
    error: null,
    review: null,
    commentCount: 0,
    scanResult: null,
    unsent: false,
    addedBy: null,
    createdAt: ago(2 * day),
    thumbnailUrl: null,
    ...overrides,
  };
}

/** Shoot › Day 1 › Raw, and Misc, at the top; three files at the top and one in Raw. */
export function sampleTree() {
  const folders = [
    folder('fo_misc', 'Misc', null),
    folder('fo_shoot', 'Shoot', null),
    folder('fo_day1', 'Shoot/Day 1', 'fo_shoot'),
    folder('fo_raw', 'Shoot/Day 1/Raw', 'fo_day1'),
  ];
  const files = [
    collectionFile({
      id: 'fi_a',
      name: 'a.jpg',
      mimeType: 'image/jpeg',
      sizeBytes: 3_000,
      hasThumbnail: true,
      thumbnailUrl: 'http://localhost:8080/thumb/a',
      createdAt: ago(3 * day),
    }),
    collectionFile({ id: 'fi_b', name: 'b.pdf', mimeType: 'application/pdf', sizeBytes: 1_000, createdAt: ago(2 * day) }),
    collectionFile({ id: 'fi_c', name: 'c.txt', mimeType: 'text/plain', sizeBytes: 2_000, createdAt: ago(day) }),
    collectionFile({ id: 'fi_raw', name: 'raw.cr2', sizeBytes: 9_000, folderId: 'fo_raw' }),
  ];
  return { folders, files };
}

/**
 * The v1 API of one collection, holding its folders and files; renames, moves and deletes change
 * them, unless `extra` answers in their place. Every request is recorded.
 */
export function collectionServer({
  collection = ownedCollection(),
  tree = sampleTree(),
  plan = 'paid' as 'free' | 'paid',
  extra = {} as Record<string, StubHandler>,
} = {}) {
  let { folders, files } = tree;
  const paid = (handler: StubHandler): StubHandler => (plan === 'paid' ? handler : apiError(402, 'upgrade_required', 'Collections need a paid plan.'));
  return stubFetch({
    ...signedIn(plan),
    'GET /api/v1/collections': paid(() => json({ collections: [] })),
    'GET /api/v1/collections/:id': paid(() => json({ collection })),
    'GET /api/v1/collections/:id/folders': paid(() => json({ folders })),
    'GET /api/v1/collections/:id/files': paid(() => json({ files, nextCursor: null })),
    'PATCH /api/v1/collections/:id/folders/:folderId': paid(({ params, body }) => {
      const change = body as Partial<Folder>;
      folders = folders.map((f) => (f.id === params.folderId ? { ...f, ...change } : f));
      return json({ folder: folders.find((f) => f.id === params.folderId) });
    }),
    'PATCH /api/v1/collections/:id/files/:fileId': paid(({ params, body }) => {
      files = files.map((f) => (f.id === params.fileId ? { ...f, ...(body as Partial<ListedCollectionFile>) } : f));
      const { thumbnailUrl: _omitted, ...file } = files.find((f) => f.id === params.fileId)!;
      return json({ file });
    }),
    'DELETE /api/v1/collections/:id/files': paid(({ body }) => {
      const ids = new Set((body as { fileIds: string[] }).fileIds);
      const before = files.length;
      files = files.filter((f) => !ids.has(f.id));
      return json({ deleted: before - files.length });
    }),
    'DELETE /api/v1/collections/:id/folders/:folderId': paid(({ params }) => {
      folders = folders.filter((f) => f.id !== params.folderId && !f.path.startsWith(`${folders.find((g) => g.id === params.folderId)?.path}/`));
      return json({ deleted: true });
    }),
    'POST /api/v1/collections/:id/folders': paid(({ body }) => {
      const input = body as { name: string; parentId: string | null };
      const parent = folders.find((f) => f.id === input.parentId);
      const created = folder(`fo_${folders.length + 1}`, parent ? `${parent.path}/${input.name}` : input.name, input.parentId);
      folders = [...folders, created];
      return json({ folder: created }, 201);
    }),
    ...extra,
  });
}
