// @module-tag scale-out — upload bytes land in the configured storage
import { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionResponseSchema, FolderListSchema, FolderResponseSchema, type Folder } from '../../contract/collections.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { collectionFiles, collectionFolders, collections, files } from '../db/schema/index.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { ensureFolderPath, ensureFolderPaths } from './folders.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function paidKey() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  return { ws, token: await ws.createKey(['collections:read', 'collections:write'], 'folders') };
}

const call = (token: string, method: string, path: string, json?: unknown) => server.fetch(`/api/v1${path}`, { method, token, json });

async function newCollection(token: string, title = 'Shoot'): Promise<string> {
  const res = await call(token, 'POST', '/collections', { title });
  expect(res.status).toBe(201);
  return CollectionResponseSchema.parse(await res.json()).collection.id;
}

async function mkdir(token: string, collectionId: string, name: string, parentId?: string | null): Promise<Folder> {
  const res = await call(token, 'POST', `/collections/${collectionId}/folders`, { name, ...(parentId !== undefined ? { parentId } : {}) });
  expect(res.status, await res.clone().text()).toBe(201);
  return FolderResponseSchema.parse(await res.json()).folder;
}

async function move(token: string, collectionId: string, folderId: string, body: unknown): Promise<Folder> {
  const res = await call(token, 'PATCH', `/collections/${collectionId}/folders/${folderId}`, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return FolderResponseSchema.parse(await res.json()).folder;
}

async function foldersOf(token: string, collectionId: string): Promise<Folder[]> {
  const res = await call(token, 'GET', `/collections/${collectionId}/folders`);
  expect(res.status).toBe(200);
  return FolderListSchema.parse(await res.json()).folders;
}

/** A chain of folders L0/L1/…, each inside the one before. */
async function chain(token: string, collectionId: string, levels: number): Promise<Folder[]> {
  const out: Folder[] = [];
  for (let i = 0; i < levels; i++) out.push(await mkdir(token, collectionId, `L${i}`, out[i - 1]?.id ?? null));
  return out;
}

/** A stored collection file in a folder, bytes and all, as an upload would leave it. */
async function storeFile(workspaceId: string, collectionId: string, folderId: string | null, name: string): Promise<string> {
  const id = newId('fi');
  const data = Buffer.from(`bytes of ${name}`);
  await server.services.storage.write(id, Readable.from([data]));
  await server.services.db.insert(files).values({
    id,
    workspaceId,
    ownerKind: 'collection',
    ownerId: collectionId,
    name,
    sizeBytes: data.length,
    mimeType: 'image/jpeg',
    state: 'complete',
    storageKey: id,
    crc32: '00000000',
    createdAt: server.clock.now(),
    completedAt: server.clock.now(),
  });
  await server.services.db.insert(collectionFiles).values({ fileId: id, collectionId, folderId, source: 'api' });
  return id;
}

describe('folders of a collection', () => {
  it('creates folders at the top level and inside others, with their path and depth', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const shoot = await mkdir(token, c, 'Shoot');
    expect(shoot).toEqual({ id: expect.stringMatching(/^fo_/), name: 'Shoot', path: 'Shoot', parentId: null, depth: 0 });
    const day = await mkdir(token, c, 'Day 1', shoot.id);
    expect(day).toMatchObject({ name: 'Day 1', path: 'Shoot/Day 1', parentId: shoot.id, depth: 1 });
    const raw = await mkdir(token, c, 'Raw', day.id);
    expect(raw).toMatchObject({ path: 'Shoot/Day 1/Raw', parentId: day.id, depth: 2 });
    expect(await mkdir(token, c, 'Top', null)).toMatchObject({ path: 'Top', parentId: null, depth: 0 });
    expect(await foldersOf(token, c)).toEqual([shoot, day, raw, expect.objectContaining({ name: 'Top' })]);
  });

  it('cleans names like file names and refuses what cannot be a name', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    expect(await mkdir(token, c, '  \u202eDay\u0007 2\u200f  ')).toMatchObject({ name: 'Day 2', path: 'Day 2' });
    for (const name of ['', '  ', '\u0007', 'a/b', 'a\\b', '.', '..', 'x'.repeat(256)]) {
      const error = await errorOf(await call(token, 'POST', `/collections/${c}/folders`, { name }), 400);
      expect(error.details.fields).toEqual([expect.objectContaining({ path: 'name' })]);
    }
    const nul = await errorOf(await call(token, 'POST', `/collections/${c}/folders`, { name: 'a\u0000b' }), 400);
    expect(nul.details.fields).toEqual([expect.objectContaining({ path: 'name' })]);
  });

  it('keeps names unique among siblings regardless of case, but the same name may sit under different parents', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const a = await mkdir(token, c, 'Raw');
    const clash = await errorOf(await call(token, 'POST', `/collections/${c}/folders`, { name: 'rAW' }), 409);
    expect(clash).toMatchObject({ code: 'conflict', details: { reason: 'name_taken' } });
    const inner = await mkdir(token, c, 'raw', a.id);
    expect(inner.path).toBe('Raw/raw');
    const b = await mkdir(token, c, 'Edits');
    await mkdir(token, c, 'RAW', b.id);
    expect((await errorOf(await call(token, 'POST', `/collections/${c}/folders`, { name: 'RAW', parentId: a.id }), 409)).details.reason).toBe('name_taken');
    // Renaming or moving onto a sibling's name clashes too, and changes nothing.
    const before = await foldersOf(token, c);
    expect((await errorOf(await call(token, 'PATCH', `/collections/${c}/folders/${b.id}`, { name: 'raw' }), 409)).details.reason).toBe('name_taken');
    expect((await errorOf(await call(token, 'PATCH', `/collections/${c}/folders/${inner.id}`, { parentId: null }), 409)).details.reason).toBe('name_taken');
    expect(await foldersOf(token, c)).toEqual(before);
    // A change of case alone is a rename.
    expect(await move(token, c, a.id, { name: 'RAW' })).toMatchObject({ name: 'RAW', path: 'RAW' });
    expect((await foldersOf(token, c)).find((f) => f.id === inner.id)?.path).toBe('RAW/raw');
  });

  it('refuses a parentId that is not a folder of this collection, naming parentId', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const other = await newCollection(token, 'Other');
    const elsewhere = await mkdir(token, other, 'Elsewhere');
    const mine = await mkdir(token, c, 'Mine');
    for (const parentId of ['fo_doesnotexist0000000', elsewhere.id, 'not an id']) {
      const created = await errorOf(await call(token, 'POST', `/collections/${c}/folders`, { name: 'New', parentId }), 400);
      expect(created.details.fields).toEqual([expect.objectContaining({ path: 'parentId' })]);
      const moved = await errorOf(await call(token, 'PATCH', `/collections/${c}/folders/${mine.id}`, { parentId }), 400);
      expect(moved.details.fields).toEqual([expect.objectContaining({ path: 'parentId' })]);
    }
    expect(await foldersOf(token, c)).toEqual([mine]);
  });

  it("answers 404 for another workspace's collection or folder, and for a folder of another collection", async () => {
    const { token } = await paidKey();
    const stranger = await paidKey();
    const c = await newCollection(token);
    const folder = await mkdir(token, c, 'Private');
    for (const [method, path, body] of [
      ['GET', `/collections/${c}/folders`, undefined],
      ['POST', `/collections/${c}/folders`, { name: 'Mine now' }],
      ['PATCH', `/collections/${c}/folders/${folder.id}`, { name: 'Stolen' }],
      ['DELETE', `/collections/${c}/folders/${folder.id}`, undefined],
    ] as const) {
      expect((await errorOf(await call(stranger.token, method, path, body), 404)).code).toBe('not_found');
    }
    const second = await newCollection(token, 'Second');
    expect((await call(token, 'PATCH', `/collections/${second}/folders/${folder.id}`, { name: 'Moved' })).status).toBe(404);
    expect((await call(token, 'DELETE', `/collections/${second}/folders/${folder.id}`)).status).toBe(404);
    expect((await call(token, 'PATCH', `/collections/${c}/folders/fo_unknown000000000000`, { name: 'x' })).status).toBe(404);
    expect(await foldersOf(token, c)).toEqual([folder]);
  });

  it('is a paid feature: 402 upgrade_required on a free workspace, and once a workspace is back on the free plan', async () => {
    const free = await server.createWorkspace();
    const readOnly = await free.createKey(['collections:read']);
    expect((await errorOf(await call(readOnly, 'GET', '/collections/col_any0000000000000000/folders'), 402)).code).toBe('upgrade_required');
    const { ws, token } = await paidKey();
    const c = await newCollection(token);
    const folder = await mkdir(token, c, 'Kept');
    await server.setPlan(ws.id, 'free');
    for (const [method, path, body] of [
      ['GET', `/collections/${c}/folders`, undefined],
      ['POST', `/collections/${c}/folders`, { name: 'x' }],
      ['PATCH', `/collections/${c}/folders/${folder.id}`, { name: 'x' }],
      ['DELETE', `/collections/${c}/folders/${folder.id}`, undefined],
    ] as const) {
      expect((await errorOf(await call(token, method, path, body), 402)).code).toBe('upgrade_required');
    }
    await server.setPlan(ws.id, 'paid');
    expect(await foldersOf(token, c)).toEqual([folder]);
  });

  it('keeps a path within 1024 bytes, on create and on move', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const long = (letter: string) => letter.repeat(255);
    const a = await mkdir(token, c, long('a'));
    const b = await mkdir(token, c, long('b'), a.id);
    const deep = await mkdir(token, c, long('c'), b.id);
    expect(Buffer.byteLength((await mkdir(token, c, long('d'), deep.id)).path)).toBe(1023);
    const tooDeep = await errorOf(await call(token, 'POST', `/collections/${c}/folders`, { name: 'e', parentId: (await foldersOf(token, c))[3]!.id }), 400);
    expect(tooDeep.details.fields).toEqual([{ path: 'name', message: "the folder's path would be longer than 1024 bytes" }]);
    const other = await mkdir(token, c, 'o');
    const moved = await errorOf(await call(token, 'PATCH', `/collections/${c}/folders/${a.id}`, { parentId: other.id }), 400);
    expect(moved.details.fields).toEqual([expect.objectContaining({ path: 'parentId' })]);
    expect((await foldersOf(token, c)).map((f) => f.depth)).toEqual([0, 1, 2, 3, 0]);
  });

  it('renames the top of a chain 12 levels deep: every path below changes, every depth stays', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const levels = await chain(token, c, 12);
    expect(levels[11]).toMatchObject({ path: 'L0/L1/L2/L3/L4/L5/L6/L7/L8/L9/L10/L11', depth: 11 });
    expect(await move(token, c, levels[0]!.id, { name: 'Top level' })).toEqual({
      id: levels[0]!.id,
      name: 'Top level',
      path: 'Top level',
      parentId: null,
      depth: 0,
    });
    const after = new Map((await foldersOf(token, c)).map((f) => [f.id, f]));
    expect(after.size).toBe(12);
    levels.forEach((folder, i) => {
      const names = ['Top level', ...levels.slice(1, i + 1).map((f) => f.name)];
      expect(after.get(folder.id)).toEqual({ ...folder, name: i === 0 ? 'Top level' : folder.name, path: names.join('/'), depth: i });
    });
  });

  it('moves the level-3 folder of a 12-level chain under another top folder, rewriting the paths and depths of its whole subtree', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const levels = await chain(token, c, 12);
    const other = await mkdir(token, c, 'Other');
    const moved = await move(token, c, levels[3]!.id, { parentId: other.id });
    expect(moved).toEqual({ id: levels[3]!.id, name: 'L3', path: 'Other/L3', parentId: other.id, depth: 1 });
    const after = new Map((await foldersOf(token, c)).map((f) => [f.id, f]));
    expect(after.get(other.id)).toEqual(other);
    levels.forEach((folder, i) => {
      if (i < 3) expect(after.get(folder.id)).toEqual(folder);
      else {
        const path = ['Other', ...levels.slice(3, i + 1).map((f) => f.name)].join('/');
        expect(after.get(folder.id)).toEqual({ ...folder, parentId: i === 3 ? other.id : folder.parentId, path, depth: i - 2 });
      }
    });
    // Renamed and moved back to the top in one request.
    expect(await move(token, c, levels[3]!.id, { name: 'Back', parentId: null })).toMatchObject({ path: 'Back', depth: 0, parentId: null });
    expect((await foldersOf(token, c)).find((f) => f.id === levels[11]!.id)).toMatchObject({ path: 'Back/L4/L5/L6/L7/L8/L9/L10/L11', depth: 8 });
  });

  it('refuses to move a folder into itself or into a folder inside it, changing nothing', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const levels = await chain(token, c, 9);
    const before = await foldersOf(token, c);
    for (const parent of [levels[1]!, levels[7]!]) {
      const error = await errorOf(await call(token, 'PATCH', `/collections/${c}/folders/${levels[1]!.id}`, { name: 'Renamed', parentId: parent.id }), 400);
      expect(error.details.fields).toEqual([{ path: 'parentId', message: 'a folder cannot move into itself or a folder inside it' }]);
    }
    expect(await foldersOf(token, c)).toEqual(before);
  });

  it('lists depth first by path, whatever the order of creation and the case of names', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const aSpace = await mkdir(token, c, 'A B');
    const b = await mkdir(token, c, 'b');
    const a = await mkdir(token, c, 'A');
    const aDash = await mkdir(token, c, 'A-');
    const ab = await mkdir(token, c, 'B', a.id);
    const abc = await mkdir(token, c, 'C', ab.id);
    const abSpace = await mkdir(token, c, 'B C', a.id);
    const first = await mkdir(token, c, '0');
    expect((await foldersOf(token, c)).map((f) => f.path)).toEqual([first, a, ab, abc, abSpace, aSpace, aDash, b].map((f) => f.path));
  });

  it('matches LIKE wildcards in names literally when a subtree is renamed or deleted', async () => {
    const { token } = await paidKey();
    const c = await newCollection(token);
    const underscore = await mkdir(token, c, 'A_');
    await mkdir(token, c, 'x', underscore.id);
    const ab = await mkdir(token, c, 'AB');
    const abx = await mkdir(token, c, 'x', ab.id);
    const percent = await mkdir(token, c, '%');
    const zed = await mkdir(token, c, 'Z');
    const zedInner = await mkdir(token, c, 'y', zed.id);
    await move(token, c, underscore.id, { name: 'A-' });
    expect((await foldersOf(token, c)).find((f) => f.id === abx.id)).toEqual(abx);
    expect((await call(token, 'DELETE', `/collections/${c}/folders/${percent.id}`)).status).toBe(200);
    expect((await foldersOf(token, c)).map((f) => f.path)).toEqual(['A-', 'A-/x', 'AB', 'AB/x', 'Z', 'Z/y']);
    expect((await foldersOf(token, c)).find((f) => f.id === zedInner.id)).toEqual(zedInner);
  });

  it('deletes a folder with everything inside to the trash, and for good from there: subfolders, files and their stored bytes, and a cover among them', async () => {
    const { ws, token } = await paidKey();
    const c = await newCollection(token);
    const keep = await mkdir(token, c, 'Keep');
    const gone = await mkdir(token, c, 'Gone');
    const inner = await mkdir(token, c, 'Inner', gone.id);
    const deepest = await mkdir(token, c, 'Deepest', inner.id);
    const kept = [await storeFile(ws.id, c, null, 'top.jpg'), await storeFile(ws.id, c, keep.id, 'keep.jpg')];
    const removed = [await storeFile(ws.id, c, gone.id, 'a.jpg'), await storeFile(ws.id, c, inner.id, 'b.jpg'), await storeFile(ws.id, c, deepest.id, 'c.jpg')];
    await server.services.db.update(collections).set({ coverFileId: removed[2] }).where(eq(collections.id, c));
    server.clock.advance(5000);

    const res = await call(token, 'DELETE', `/collections/${c}/folders/${gone.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });

    expect(await foldersOf(token, c)).toEqual([keep]);
    const { db, storage } = server.services;
    // In the trash as one item, bytes and all, until deleted for good.
    for (const id of removed) expect(await storage.size(id)).not.toBeNull();
    expect((await call(token, 'DELETE', `/collections/${c}/trash/${gone.id}`)).status).toBe(200);
    const left = await db
      .select({ id: files.id })
      .from(files)
      .where(inArray(files.id, [...kept, ...removed]));
    expect(left.map((f) => f.id).sort()).toEqual([...kept].sort());
    expect(await db.select().from(collectionFiles).where(inArray(collectionFiles.fileId, removed))).toEqual([]);
    for (const id of removed) expect(await storage.size(id)).toBeNull();
    for (const id of kept) expect(await storage.size(id)).not.toBeNull();
    const collection = CollectionResponseSchema.parse(await (await call(token, 'GET', `/collections/${c}`)).json()).collection;
    expect(collection).toMatchObject({ coverFileId: null, fileCount: 2, updatedAt: server.clock.now().toISOString() });
    expect((await call(token, 'DELETE', `/collections/${c}/folders/${gone.id}`)).status).toBe(404);
    expect((await call(token, 'DELETE', `/collections/${c}/folders/${inner.id}`)).status).toBe(404);
  });
});

describe('ensureFolderPaths', () => {
  /** The database with every select and insert counted: each is one query. */
  function counting(db: Pick<Database, 'select' | 'insert'>) {
    const counted = { queries: 0 };
    const tx = {
      select: ((...args: Parameters<Database['select']>) => (counted.queries++, db.select(...args))) as Database['select'],
      insert: ((...args: Parameters<Database['insert']>) => (counted.queries++, db.insert(...args))) as Database['insert'],
    };
    return { tx, counted };
  }

  async function collectionWithFolder(name: string) {
    const { token } = await paidKey();
    const c = await newCollection(token);
    return { token, c, folder: await mkdir(token, c, name) };
  }

  it('resolves a batch sharing a tree with a few queries, reusing folders whatever the case of their names', async () => {
    const { token, c, folder: existing } = await collectionWithFolder('Shoot');
    const paths = [
      'shoot/Day 1/Raw',
      'SHOOT/day 1/raw',
      'Shoot/Day 1/Edits',
      'Shoot',
      null,
      '',
      '/Other//x/',
      ...Array.from({ length: 500 }, (_, i) => `Shoot/Day ${i % 3}/Raw`),
    ];
    const { tx, counted } = counting(server.services.db);
    const ids = await ensureFolderPaths(tx, c, null, paths, server.clock.now());
    // One lookup of what exists, then per level one insert (nothing was made concurrently, so no read back).
    expect(counted.queries).toBeLessThanOrEqual(1 + 3);

    const byId = new Map((await foldersOf(token, c)).map((f) => [f.id, f]));
    const pathOf = (id: string | null) => (id === null ? null : byId.get(id)!.path);
    expect(ids.slice(0, 7).map(pathOf)).toEqual(['Shoot/Day 1/Raw', 'Shoot/Day 1/Raw', 'Shoot/Day 1/Edits', 'Shoot', null, null, 'Other/x']);
    expect(ids[3]).toBe(existing.id);
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids.slice(7).map(pathOf))).toEqual(new Set(['Shoot/Day 0/Raw', 'Shoot/Day 1/Raw', 'Shoot/Day 2/Raw']));
    expect([...byId.values()].map((f) => [f.path, f.depth])).toEqual([
      ['Other', 0],
      ['Other/x', 1],
      ['Shoot', 0],
      ['Shoot/Day 0', 1],
      ['Shoot/Day 0/Raw', 2],
      ['Shoot/Day 1', 1],
      ['Shoot/Day 1/Edits', 2],
      ['Shoot/Day 1/Raw', 2],
      ['Shoot/Day 2', 1],
      ['Shoot/Day 2/Raw', 2],
    ]);

    // The same tree again is found in one query.
    const again = counting(server.services.db);
    expect(await ensureFolderPaths(again.tx, c, null, paths, server.clock.now())).toEqual(ids);
    expect(again.counted.queries).toBe(1);
  });

  it('works under a folder, keeps its stored case, and answers parentId itself for no path', async () => {
    const { token, c, folder } = await collectionWithFolder('Root');
    const db = server.services.db;
    expect(await ensureFolderPath(db, c, folder.id, null, server.clock.now())).toBe(folder.id);
    expect(await ensureFolderPath(db, c, folder.id, '', server.clock.now())).toBe(folder.id);
    expect(await ensureFolderPath(db, c, null, null, server.clock.now())).toBeNull();
    const id = await ensureFolderPath(db, c, folder.id, 'a/B', server.clock.now());
    const inner = await mkdir(token, c, 'Inner', folder.id);
    expect(await ensureFolderPath(db, c, folder.id, 'INNER/c', server.clock.now())).not.toBeNull();
    expect((await foldersOf(token, c)).map((f) => [f.path, f.depth, f.parentId === folder.id])).toEqual([
      ['Root', 0, false],
      ['Root/a', 1, true],
      ['Root/a/B', 2, false],
      ['Root/Inner', 1, true],
      ['Root/Inner/c', 2, false],
    ]);
    expect((await foldersOf(token, c)).find((f) => f.path === 'Root/a/B')?.id).toBe(id);
    expect(inner.path).toBe('Root/Inner');
    await expect(ensureFolderPath(db, c, 'fo_missing0000000000000', 'x', server.clock.now())).rejects.toBeInstanceOf(ApiError);
    await expect(ensureFolderPath(db, c, null, 'a/../b', server.clock.now())).rejects.toBeInstanceOf(ApiError);
  });

  it('lets two transactions make the same tree at once: the second waits for the first and reuses its folders', async () => {
    const { token, c } = await collectionWithFolder('Existing');
    const db = server.services.db;
    const tree = ['Drop/a/b', 'Drop/a/c', 'drop/D'];
    let firstDone!: () => void;
    const firstMade = new Promise<void>((resolve) => (firstDone = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = db.transaction(async (tx) => {
      const ids = await ensureFolderPaths(tx, c, null, tree, server.clock.now());
      firstDone();
      await released;
      return ids;
    });
    await firstMade;
    let secondFinished = false;
    const second = db.transaction(async (tx) => ensureFolderPaths(tx, c, null, [...tree].reverse(), server.clock.now())).finally(() => (secondFinished = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // It waits on the unique index for the first transaction's uncommitted rows.
    expect(secondFinished).toBe(false);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect([...b].reverse()).toEqual(a);
    expect((await foldersOf(token, c)).map((f) => f.path)).toEqual(['Drop', 'Drop/a', 'Drop/a/b', 'Drop/a/c', 'Drop/D', 'Existing']);
    const rows = await db.select().from(collectionFolders).where(eq(collectionFolders.collectionId, c));
    expect(rows).toHaveLength(6);
  });
});
