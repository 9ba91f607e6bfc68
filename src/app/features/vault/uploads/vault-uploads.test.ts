import { describe, expect, it, vi } from 'vitest';
import {
  ciphertextSize,
  createDecryptStream,
  createVault,
  fileContentKey,
  openVaultName,
  toBase64url,
  unwrapFileKey,
  type Argon2id,
  type MasterKey,
} from '../../../../crypto';
import { firstDifference } from '../../../../crypto/test-support';
import { apiError, json, stubFetch, type StubHandler, type StubRequest } from '../../../test/fetch-stub';
import { UploadSession, type FileToUpload } from '../../../lib/uploads/upload-session';
import { destinationOf } from '../../../lib/uploads/upload-session';
import { ENCRYPTED_REQUEST_BYTES } from '../../send';
import { VAULT_OWNER_ID, VaultUploads, vaultUploadsStorageKey, type DecryptedFolderRef, type VaultUploadsOptions } from './vault-uploads';

/** A fast stand-in for Argon2id (the vault's own tests run the real one): SHA-256 of the passphrase. */
const fakeArgon2: Argon2id = async (passphrase) => new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(passphrase)));
const newMasterKey = async () => (await createVault('correct horse battery staple', { accountId: 'us_1', argon2: fakeArgon2 })).masterKey;

const inTwoHours = new Date(Date.now() + 2 * 3600_000).toISOString();
const usage = { usedBytes: 0, limitBytes: 10_000_000_000 };

interface StoredItem {
  folderId: string | null;
  size: number;
  wrappedKey: string;
  sealedMeta: string;
  sealedThumb: string;
}

/** The vault's side of the server, keeping what was sent so a test can open it again as another visit would. */
function vaultServer(options: { failItemPatch?: boolean } = {}) {
  let next = 1;
  const now = new Date().toISOString();
  const folders = new Map<string, { parentId: string | null; sealedName: string }>();
  const items = new Map<string, StoredItem>();
  const folderJson = (id: string) => ({ id, ...folders.get(id)!, createdAt: now, updatedAt: now });
  const itemJson = (id: string) => ({ id, state: 'uploading', ...items.get(id)!, createdAt: now, updatedAt: now });
  const routes: Record<string, StubHandler> = {
    'POST /api/dashboard/vault/folders': ({ body }: StubRequest) => {
      const id = `vf_${next++}`;
      folders.set(id, { parentId: (body as { parentId?: string | null }).parentId ?? null, sealedName: '' });
      return json({ folder: folderJson(id) }, 201);
    },
    'PATCH /api/dashboard/vault/folders/:id': ({ params, body }: StubRequest) => {
      Object.assign(folders.get(params.id!)!, body);
      return json({ folder: folderJson(params.id!) });
    },
    'POST /api/dashboard/vault/items': ({ body }: StubRequest) => {
      const files = (body as { items: { size: number; folderId?: string | null }[] }).items.map((item) => {
        const id = `vi_${next++}`;
        items.set(id, { folderId: item.folderId ?? null, size: item.size, wrappedKey: '', sealedMeta: '', sealedThumb: '' });
        return { id, name: 'encrypted', size: item.size, uploadToken: `tok_${id}`, uploadTokenExpiresAt: inTwoHours };
      });
      return json({ tusEndpoint: 'http://localhost:8080/files/', files, usage }, 201);
    },
    'PATCH /api/dashboard/vault/items/:id': ({ params, body }: StubRequest) => {
      if (options.failItemPatch) return apiError(500, 'internal', 'The vault could not store this right now.');
      Object.assign(items.get(params.id!)!, body);
      return json({ item: itemJson(params.id!) });
    },
    'DELETE /api/dashboard/vault/items': ({ body }: StubRequest) => {
      const ids = (body as { ids: string[] }).ids;
      for (const id of ids) items.delete(id);
      return json({ deleted: ids.length, usage });
    },
    'DELETE /api/dashboard/vault/folders/:id': ({ params }: StubRequest) => {
      folders.delete(params.id!);
      return json({ deletedFolders: 1, deletedItems: 0, usage });
    },
  };
  const network = stubFetch(routes);
  return { network, folders, items, wrappedKeyOf: (id: string) => Promise.resolve(items.get(id)?.wrappedKey ?? '') };
}

/** The uploads wired as the vault page wires them. */
function vaultSession(master: MasterKey, options: Partial<VaultUploadsOptions> = {}) {
  const uploads = new VaultUploads({ master, folders: () => [], wrappedKeyOf: () => Promise.resolve(''), ...options });
  const session = new UploadSession({ storageKey: vaultUploadsStorageKey('us_1'), ownerId: VAULT_OWNER_ID, registrar: uploads.registrar, source: uploads });
  return { uploads, session };
}

type Reader = {
  openFile(input: Blob, chunkSize: number): Promise<{ size: number; slice(start: number, end: number): Promise<{ value: Blob; done: boolean }> }>;
};
const readerOf = (options: Record<string, unknown>) => options.fileReader as Reader;
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

// Past one 1 MiB chunk, so reads cross a chunk edge.
const bigPlain = new Uint8Array(1024 * 1024 + 4099).map((_, i) => (i * 31) & 255);
const smallPlain = new TextEncoder().encode('Packing list: passport, charger, the good socks.');
const plainOf: Record<string, Uint8Array<ArrayBuffer>> = { 'a.jpg': bigPlain, 'b.jpg': bigPlain.slice(0, 70_001), 'c.txt': smallPlain };

const top = destinationOf(null);
const a: FileToUpload = { key: 'uppy-a', name: 'a.jpg', size: bigPlain.length, mimeType: 'image/jpeg', path: 'Trip/Day 1', destination: top };
const b: FileToUpload = { key: 'uppy-b', name: 'b.jpg', size: 70_001, mimeType: 'image/jpeg', path: 'Trip/Day 1', destination: top };
const c: FileToUpload = { key: 'uppy-c', name: 'c.txt', size: smallPlain.length, mimeType: 'text/plain', path: 'Trip', destination: top };

async function folderNames(master: MasterKey, folders: Map<string, { parentId: string | null; sealedName: string }>) {
  const opened: DecryptedFolderRef[] = [];
  for (const [id, folder] of folders)
    opened.push({ id, parentId: folder.parentId, name: (await openVaultName(master, { kind: 'folder', id }, folder.sealedName)).name });
  return opened;
}

async function ciphertextOf(session: UploadSession, file: FileToUpload) {
  const source = await readerOf(session.tusOptionsFor(file)).openFile(new Blob([plainOf[file.name]!]), ENCRYPTED_REQUEST_BYTES);
  return { source, whole: await bytesOf((await source.slice(0, source.size)).value) };
}

describe('Vault uploads', { timeout: 30_000 }, () => {
  it('makes the folders of a dropped tree once, with sealed names, and registers each file into its folder', async () => {
    const master = await newMasterKey();
    const server = vaultServer();
    const onChange = vi.fn();
    const { session } = vaultSession(master, { onChange });
    // Two batches of one dropped folder, as Uppy adds them: the second finds the first one's folders.
    await Promise.all([session.registerFiles([a, b]), session.registerFiles([c])]);

    const folders = await folderNames(master, server.folders);
    expect(folders).toHaveLength(2);
    const trip = folders.find((folder) => folder.name === 'Trip')!;
    const day1 = folders.find((folder) => folder.name === 'Day 1')!;
    expect(trip.parentId).toBeNull();
    expect(day1.parentId).toBe(trip.id);
    expect([...server.items.values()].map((item) => item.folderId)).toEqual([day1.id, day1.id, trip.id]);
    expect(server.network.requestsTo('POST /api/dashboard/vault/items').map((request) => request.body)).toEqual([
      {
        items: [
          { size: ciphertextSize(a.size), folderId: day1.id },
          { size: ciphertextSize(b.size), folderId: day1.id },
        ],
      },
      { items: [{ size: ciphertextSize(c.size), folderId: trip.id }] },
    ]);
    expect(onChange).toHaveBeenCalledTimes(2);
    // The owner's own list of unfinished uploads still shows each file as it is.
    expect(session.filesNotIn([]).map((file) => [file.name, file.path])).toEqual([
      ['a.jpg', 'Trip/Day 1'],
      ['b.jpg', 'Trip/Day 1'],
      ['c.txt', 'Trip'],
    ]);
  });

  it('puts a dropped tree into a folder of the same name that exists already', async () => {
    const master = await newMasterKey();
    const server = vaultServer();
    const existing: DecryptedFolderRef[] = [
      { id: 'vf_trip', parentId: null, name: 'Trip' },
      { id: 'vf_other', parentId: null, name: 'trip' },
    ];
    const { session } = vaultSession(master, { folders: () => existing });
    await session.registerFiles([a, b, c]);

    const made = server.network.requestsTo('POST /api/dashboard/vault/folders');
    expect(made.map((request) => request.body)).toEqual([{ parentId: 'vf_trip' }]);
    const [day1] = await folderNames(master, server.folders);
    expect(day1).toMatchObject({ parentId: 'vf_trip', name: 'Day 1' });
    expect([...server.items.values()].map((item) => item.folderId)).toEqual([day1!.id, day1!.id, 'vf_trip']);
  });

  it('makes one folder for batches registered at the same time, and registers a batch of more than 100 files in requests of at most 100', async () => {
    const master = await newMasterKey();
    const server = vaultServer();
    const { uploads } = vaultSession(master);
    const many = Array.from({ length: 104 }, (_, i): FileToUpload => ({ key: `uppy-${i}`, name: `${i}.txt`, size: i, path: 'Notes', destination: 'vf_here' }));
    const toRegister = await Promise.all(many.map(async (file) => ({ ...file, ...(await uploads.prepare(file)).register, key: file.key })));
    const [first, second] = await Promise.all([
      uploads.registrar.register(toRegister.slice(0, 101), null),
      uploads.registrar.register(toRegister.slice(101), null),
    ]);

    expect(server.network.requestsTo('POST /api/dashboard/vault/folders').map((request) => request.body)).toEqual([{ parentId: 'vf_here' }]);
    expect(first!.ownerId).toBe(VAULT_OWNER_ID);
    const targets = [...first!.targets, ...second!.targets];
    expect(targets.map((target) => target.size)).toEqual(many.map((file) => ciphertextSize(file.size)));
    for (const target of targets) expect(server.items.get(target.id)!.folderId).toBe('vf_1');
    const requestSizes = server.network.requestsTo('POST /api/dashboard/vault/items').map((request) => (request.body as { items: unknown[] }).items.length);
    expect(requestSizes.sort((x, y) => x - y)).toEqual([1, 3, 100]);
  });

  it('sends no name, type or key the server could read, and tus uploads ciphertext that opens with the wrapped key and sealed name', async () => {
    const master = await newMasterKey();
    const server = vaultServer();
    const { session } = vaultSession(master);
    await session.registerFiles([a, b, c]);

    const fileKeys: Uint8Array[] = [];
    for (const file of [a, b, c]) {
      const itemId = session.fileIdOf(file.key)!;
      const stored = server.items.get(itemId)!;
      const fileKey = await unwrapFileKey(master, itemId, stored.wrappedKey);
      fileKeys.push(fileKey);
      const meta = await openVaultName(master, { kind: 'file', id: itemId }, stored.sealedMeta);
      expect(meta).toMatchObject({ name: file.name, type: file.mimeType, size: file.size });

      const { source, whole } = await ciphertextOf(session, file);
      expect(source.size).toBe(ciphertextSize(file.size));
      expect(stored.size).toBe(source.size);
      // tus reads from wherever its last request stopped: an unaligned read gives the same bytes as the whole.
      const from = Math.min(1_000_003, Math.floor(source.size / 3));
      const tail = await source.slice(from, source.size + 100);
      expect(tail.done).toBe(true);
      expect(firstDifference(await bytesOf(tail.value), whole.subarray(from))).toBe(-1);

      const decrypt = createDecryptStream(await fileContentKey(fileKey), { salt: meta.salt!, size: meta.size! });
      const opened = new Uint8Array(await new Response(new Blob([whole]).stream().pipeThrough(decrypt)).arrayBuffer());
      expect(firstDifference(opened, plainOf[file.name]!)).toBe(-1);
    }
    // Each file has a key of its own.
    expect(new Set(fileKeys.map((key) => toBase64url(key))).size).toBe(3);

    // Quoted or before a slash: how a leaked name would look, and what no base64url text can hold.
    const secrets = ['a.jpg', 'b.jpg', 'c.txt', 'Day 1', '"Trip"', 'Trip/', 'image/jpeg', 'text/plain', ...fileKeys.map((key) => toBase64url(key))];
    expect(server.network.requests.length).toBeGreaterThan(0);
    for (const request of server.network.requests) {
      const sent = `${request.url.href} ${JSON.stringify(request.body)}`;
      for (const secret of secrets) expect(sent).not.toContain(secret);
    }
  });

  it('resumes a file registered in an earlier visit with its key from the server, giving the same bytes at the same offsets', async () => {
    const master = await newMasterKey();
    const server = vaultServer();
    const first = vaultSession(master);
    await first.session.registerFiles([a]);
    const before = (await ciphertextOf(first.session, a)).whole;

    const wrappedKeyOf = vi.fn(server.wrappedKeyOf);
    const second = vaultSession(master, { wrappedKeyOf });
    second.session.resume(second.session.remembered()!);
    const after = await readerOf(second.session.tusOptionsFor(a)).openFile(new Blob([bigPlain]), ENCRYPTED_REQUEST_BYTES);
    expect(wrappedKeyOf).toHaveBeenCalledWith(first.session.fileIdOf(a.key));
    expect(firstDifference(await bytesOf((await after.slice(1_000_003, 1_050_000)).value), before.subarray(1_000_003, 1_050_000))).toBe(-1);
    expect(firstDifference(await bytesOf((await after.slice(0, after.size)).value), before)).toBe(-1);
    expect(server.network.requestsTo('POST /api/dashboard/vault/items')).toHaveLength(1);

    const keyless = vaultSession(master, { wrappedKeyOf: () => Promise.resolve('') });
    keyless.session.resume(keyless.session.remembered()!);
    await expect(readerOf(keyless.session.tusOptionsFor(a)).openFile(new Blob([bigPlain]), ENCRYPTED_REQUEST_BYTES)).rejects.toThrow(
      'This upload cannot continue: remove the file and add it again.',
    );
  });

  it('deletes the batch again when its keys cannot be stored, and the file shows why it failed', async () => {
    const master = await newMasterKey();
    const server = vaultServer({ failItemPatch: true });
    const onChange = vi.fn();
    const { session } = vaultSession(master, { onChange });
    await expect(session.registerFiles([a, c])).rejects.toThrow('The vault could not store this right now.');

    const [deleted] = server.network.requestsTo('DELETE /api/dashboard/vault/items');
    expect((deleted!.body as { ids: string[] }).ids.sort()).toEqual(['vi_3', 'vi_4']);
    expect(server.items.size).toBe(0);
    expect(session.failureOf(a.key)).toBe('The vault could not store this right now.');
    expect(session.has(a.key)).toBe(false);
    // Its folders were made and named, so the page shows them.
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('takes back a file removed before it finished', async () => {
    const master = await newMasterKey();
    const server = vaultServer();
    const { session } = vaultSession(master);
    await session.registerFiles([c]);
    const itemId = session.fileIdOf(c.key)!;
    await session.removeFile(c.key);
    expect(server.network.requestsTo('DELETE /api/dashboard/vault/items').map((request) => request.body)).toEqual([{ ids: [itemId] }]);
    expect(server.items.size).toBe(0);
  });
});
