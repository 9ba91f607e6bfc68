// @module-tag scale-out — upload bytes land in the configured storage
import { createCipheriv, randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeletedVaultFolderSchema,
  DeletedVaultItemsSchema,
  RegisteredVaultItemsSchema,
  VaultContentsSchema,
  VaultDownloadSchema,
  VaultFolderResponseSchema,
  VaultItemResponseSchema,
  VaultResponseSchema,
  VaultUsageResponseSchema,
} from '../../contract/vault.js';
import { createVault as createBrowserVault, newFileKey, openVaultName, sealVaultName, unlockVault, unwrapFileKey, wrapFileKey, type Argon2id } from '../../crypto/index.js';
import { files, uploadTokens, vaultFolders, vaultItems, vaults } from '../db/schema/index.js';
import { ABANDONED_UPLOAD_MS, sweepAbandonedUploads } from '../files/stored.js';
import { claimDueScans } from '../scanning/scanner.js';
import { expectError, signIn, startTestServer, type TestServer } from '../test/harness.js';
import { storedBytes, tusUpload } from '../test/uploads.js';

const FREE_QUOTA = 100_000;
const PAID_QUOTA = 1_000_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ VAULT_FREE_BYTES: String(FREE_QUOTA), VAULT_PAID_BYTES: String(PAID_QUOTA) });
});
afterAll(() => server.stop());

/** A signed-in owner of a fresh workspace and a caller of the vault endpoints with their cookie. */
async function owner(options: { plan?: 'free' | 'paid' } = {}) {
  const ws = await server.createWorkspace(options);
  const cookie = await signIn(server, ws);
  const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
    server.fetch(`/api/dashboard/vault${path}`, { method, json, headers: { cookie, ...headers } });
  return { ws, cookie, call };
}
type Owner = Awaited<ReturnType<typeof owner>>;

const b64u = (n: number) => randomBytes(n).toString('base64url');
const record = (kdf: Record<string, unknown> = {}) => ({
  version: 1,
  kdf: { algorithm: 'argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 1, salt: b64u(16), ...kdf },
  wrappedMasterKey: b64u(60),
  recovery: { wrappedMasterKey: b64u(60) },
});

/** What the browser does to a name before it leaves: AES-256-GCM under a key the server never sees, as base64url. */
const vaultKey = randomBytes(32);
function seal(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', vaultKey, iv);
  return Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

async function createVault(o: Owner) {
  const res = await o.call('PUT', '', { record: record() });
  expect(res.status).toBe(201);
  return VaultResponseSchema.parse(await res.json()).vault;
}

async function register(o: Owner, items: unknown[]) {
  const res = await o.call('POST', '/items', { items });
  expect(res.status).toBe(201);
  return RegisteredVaultItemsSchema.parse(await res.json());
}

const item = (size: number, extra: Record<string, unknown> = {}) => ({ size, sealedMeta: seal(`file of ${size} bytes.jpg`), wrappedKey: b64u(60), ...extra });

async function contents(o: Owner) {
  const res = await o.call('GET', '/items');
  expect(res.status).toBe(200);
  return VaultContentsSchema.parse(await res.json());
}

const localUrl = (url: string) => url.replace(server.services.config.PUBLIC_URL, server.url);

describe('the vault (dashboard, session only)', () => {
  it('keeps a record, takes ciphertext through tus, lists, renames, moves, serves and deletes it', async () => {
    const o = await owner();
    await expectError(await o.call('GET', ''), 404, 'not_found');
    const created = await createVault(o);
    expect(created.usage).toEqual({ usedBytes: 0, limitBytes: FREE_QUOTA });
    const again = await expectError(await o.call('PUT', '', { record: record() }), 409, 'conflict');
    expect(again.details.reason).toBe('vault_exists');
    expect(VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.record).toEqual(created.record);

    const photos = VaultFolderResponseSchema.parse(await (await o.call('POST', '/folders', { sealedName: seal('Photos') })).json()).folder;
    const trips = VaultFolderResponseSchema.parse(await (await o.call('POST', '/folders', { sealedName: seal('Trips'), parentId: photos.id })).json()).folder;
    expect(trips.parentId).toBe(photos.id);

    const first = randomBytes(3000);
    const second = randomBytes(70_000);
    const registered = await register(o, [item(first.length, { folderId: photos.id }), item(second.length, { sealedThumb: b64u(300) })]);
    expect(registered.files.map((f) => [f.name, f.size])).toEqual([
      ['encrypted', first.length],
      ['encrypted', second.length],
    ]);
    expect(registered.usage).toEqual({ usedBytes: first.length + second.length, limitBytes: FREE_QUOTA });
    expect(registered.tusEndpoint).toBe(`${server.services.config.PUBLIC_URL}/files/`);
    const [a, b] = registered.files as [(typeof registered.files)[0], (typeof registered.files)[0]];
    await tusUpload(first, { endpoint: `${server.url}/files/`, token: a.uploadToken });
    await tusUpload(second, { endpoint: `${server.url}/files/`, token: b.uploadToken, chunkSize: 32 * 1024 });

    let listed = await contents(o);
    expect(new Map(listed.folders.map((f) => [f.id, f.parentId]))).toEqual(
      new Map([
        [photos.id, null],
        [trips.id, photos.id],
      ]),
    );
    expect(listed.items.map((i) => [i.id, i.folderId, i.size, i.state])).toEqual([
      [a.id, photos.id, first.length, 'complete'],
      [b.id, null, second.length, 'complete'],
    ]);

    // Rename (new sealed metadata) and move; then the thumbnail, which may be large, on its own.
    const renamed = seal('renamed.jpg');
    const moved = VaultItemResponseSchema.parse(await (await o.call('PATCH', `/items/${a.id}`, { sealedMeta: renamed, folderId: trips.id })).json()).item;
    expect([moved.sealedMeta, moved.folderId]).toEqual([renamed, trips.id]);
    const thumb = b64u(190_000);
    const withThumb = VaultItemResponseSchema.parse(await (await o.call('PATCH', `/items/${b.id}`, { sealedThumb: thumb, folderId: null })).json()).item;
    expect([withThumb.sealedThumb, withThumb.folderId]).toEqual([thumb, null]);

    // The signed link serves the ciphertext byte for byte, with no scan wait and no receipt.
    const link = VaultDownloadSchema.parse(await (await o.call('GET', `/items/${a.id}/download`)).json());
    const download = await fetch(localUrl(link.url));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await download.arrayBuffer()).equals(first)).toBe(true);
    const ranged = await fetch(localUrl(link.url), { headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(first.subarray(10, 20))).toBe(true);

    // Deleting takes the bytes too; a deleted item's link serves nothing.
    const deleted = DeletedVaultItemsSchema.parse(await (await o.call('DELETE', '/items', { ids: [a.id] })).json());
    expect(deleted).toEqual({ deleted: 1, usage: { usedBytes: second.length, limitBytes: FREE_QUOTA } });
    expect(await server.services.storage.size(a.id)).toBeNull();
    expect((await fetch(localUrl(link.url))).status).toBe(404);
    listed = await contents(o);
    expect(listed.items.map((i) => i.id)).toEqual([b.id]);
    expect(await storedBytes(server.services, b.id)).toEqual(second);

    // A passphrase change replaces the record whole.
    const changed = record({ memoryKiB: 131_072, iterations: 4, parallelism: 4 });
    const replaced = VaultResponseSchema.parse(await (await o.call('PATCH', '', { record: changed })).json()).vault;
    expect(replaced.record).toEqual(changed);
    expect(replaced.usage.usedBytes).toBe(second.length);
  });

  it("takes what the browser's vault code writes: the record, then keys and names bound to the ids it makes", async () => {
    const o = await owner();
    // Argon2id itself is src/crypto's to test; a fast stand-in keeps the parameters and passphrase in play.
    const argon2: Argon2id = async (passphrase, params) => new Uint8Array(await crypto.subtle.digest('SHA-256', Buffer.concat([Buffer.from(JSON.stringify(params)), passphrase])));
    const options = { accountId: o.ws.userId, argon2 };
    const { record, masterKey } = await createBrowserVault('correct horse battery staple', options);
    expect((await o.call('PUT', '', { record })).status).toBe(201);

    // Ids first (an empty sealed name, no key yet), then what is sealed to them.
    const folder = VaultFolderResponseSchema.parse(await (await o.call('POST', '/folders', {})).json()).folder;
    expect(folder.sealedName).toBe('');
    const sealedName = await sealVaultName(masterKey, { kind: 'folder', id: folder.id }, { name: 'Photos' });
    expect((await o.call('PATCH', `/folders/${folder.id}`, { sealedName })).status).toBe(200);
    const { files: [target] } = await register(o, [{ size: 1234, folderId: folder.id }]);
    const id = target!.id;
    const fileKey = newFileKey();
    const wrappedKey = await wrapFileKey(masterKey, id, fileKey);
    const sealedMeta = await sealVaultName(masterKey, { kind: 'file', id }, { name: 'beach.jpg', type: 'image/jpeg', size: 1000 });
    expect((await o.call('PATCH', `/items/${id}`, { wrappedKey, sealedMeta })).status).toBe(200);
    // The file's key is written once: the same again is fine, another is refused.
    expect((await o.call('PATCH', `/items/${id}`, { wrappedKey })).status).toBe(200);
    const replaced = await expectError(await o.call('PATCH', `/items/${id}`, { wrappedKey: await wrapFileKey(masterKey, id, newFileKey()) }), 409, 'conflict');
    expect(replaced.details.reason).toBe('wrapped_key_set');

    // What comes back opens with the passphrase alone.
    const stored = VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.record;
    const unlocked = await unlockVault(stored, 'correct horse battery staple', options);
    const listed = await contents(o);
    expect((await openVaultName(unlocked, { kind: 'folder', id: folder.id }, listed.folders[0]!.sealedName)).name).toBe('Photos');
    expect((await openVaultName(unlocked, { kind: 'file', id }, listed.items[0]!.sealedMeta)).name).toBe('beach.jpg');
    expect(await unwrapFileKey(unlocked, id, listed.items[0]!.wrappedKey)).toEqual(fileKey);
  });

  it('answers an item that has not finished uploading with 409 rather than a link', async () => {
    const o = await owner();
    await createVault(o);
    const { files: [target] } = await register(o, [item(10)]);
    const error = await expectError(await o.call('GET', `/items/${target!.id}/download`), 409, 'conflict');
    expect(error.details.reason).toBe('item_incomplete');
  });

  it('refuses a move into its own subtree, deletes only empty folders unless recursive, and then the bytes too', async () => {
    const o = await owner();
    await createVault(o);
    const folder = async (parentId?: string) =>
      VaultFolderResponseSchema.parse(await (await o.call('POST', '/folders', { sealedName: seal('f'), ...(parentId ? { parentId } : {}) })).json()).folder;
    const top = await folder();
    const mid = await folder(top.id);
    const low = await folder(mid.id);
    for (const parentId of [top.id, low.id]) {
      const error = await expectError(await o.call('PATCH', `/folders/${top.id}`, { parentId }), 400, 'invalid_request');
      expect(error.details.fields?.map((f) => f.path)).toEqual(['parentId']);
    }
    // Moving a folder out to the top and back under another works.
    const lifted = VaultFolderResponseSchema.parse(await (await o.call('PATCH', `/folders/${low.id}`, { parentId: null, sealedName: seal('g') })).json()).folder;
    expect(lifted.parentId).toBeNull();
    expect((await o.call('PATCH', `/folders/${low.id}`, { parentId: mid.id })).status).toBe(200);

    const bytes = randomBytes(500);
    const { files: [inLow] } = await register(o, [item(bytes.length, { folderId: low.id })]);
    await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: inLow!.uploadToken });
    const empty = await folder();

    const refused = await expectError(await o.call('DELETE', `/folders/${top.id}`), 409, 'conflict');
    expect(refused.details).toMatchObject({ reason: 'folder_not_empty', folders: 2, items: 1 });
    expect((await contents(o)).folders).toHaveLength(4);

    const gone = DeletedVaultFolderSchema.parse(await (await o.call('DELETE', `/folders/${empty.id}`)).json());
    expect([gone.deletedFolders, gone.deletedItems]).toEqual([1, 0]);
    const all = DeletedVaultFolderSchema.parse(await (await o.call('DELETE', `/folders/${top.id}?recursive=true`)).json());
    expect([all.deletedFolders, all.deletedItems, all.usage.usedBytes]).toEqual([3, 1, 0]);
    expect(await contents(o)).toEqual({ folders: [], items: [] });
    expect(await server.services.storage.size(inLow!.id)).toBeNull();
    await expectError(await o.call('DELETE', `/folders/${top.id}`), 404, 'not_found');
    await expectError(await o.call('DELETE', `/folders/${mid.id}?recursive=maybe`), 400, 'invalid_request');
  });

  it('is not there for API keys or bearer tokens (404 on every path), and needs a same-origin session', async () => {
    const o = await owner({ plan: 'paid' });
    await createVault(o);
    const folder = VaultFolderResponseSchema.parse(await (await o.call('POST', '/folders', { sealedName: seal('x') })).json()).folder;
    const { files: [target] } = await register(o, [item(5)]);
    await tusUpload(Buffer.from('bytes'), { endpoint: `${server.url}/files/`, token: target!.uploadToken });

    const apiKey = await o.ws.createKey(['transfers:read', 'transfers:write', 'collections:read', 'collections:write', 'contacts:read']);
    const tokenRes = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie: o.cookie } });
    const { accessToken } = (await tokenRes.json()) as { accessToken: string };
    // The dashboard's own token works for /api/v1 …
    expect((await server.fetch('/api/v1/me', { token: accessToken })).status).toBe(200);

    const paths: [string, string, unknown?][] = [
      ['GET', ''],
      ['GET', '/usage'],
      ['PUT', '', { record: record() }],
      ['PATCH', '', { record: record() }],
      ['GET', '/items'],
      ['POST', '/items', { items: [item(1)] }],
      ['DELETE', '/items', { ids: [target!.id] }],
      ['PATCH', `/items/${target!.id}`, { sealedMeta: seal('y') }],
      ['GET', `/items/${target!.id}/download`],
      ['POST', '/folders', { sealedName: seal('z') }],
      ['PATCH', `/folders/${folder.id}`, { sealedName: seal('z') }],
      ['DELETE', `/folders/${folder.id}?recursive=true`],
    ];
    const before = await contents(o);
    for (const [method, path, json] of paths) {
      for (const token of [apiKey, accessToken, 'st_not_a_real_token']) {
        const res = await server.fetch(`/api/dashboard/vault${path}`, { method, json, token });
        const error = await expectError(res, 404, 'not_found');
        expect(error.message).toBe(`No endpoint ${method} /api/dashboard/vault${path.split('?')[0]}`);
        // … and a bearer credential beside the cookie still does not open the vault: it is session only.
        expect((await server.fetch(`/api/dashboard/vault${path}`, { method, json, token, headers: { cookie: o.cookie } })).status).toBe(404);
      }
      await expectError(await server.fetch(`/api/dashboard/vault${path}`, { method, json }), 401, 'unauthorized');
      if (method !== 'GET') {
        await expectError(await o.call(method, path, json, { origin: 'https://evil.example' }), 403, 'forbidden');
      }
    }
    expect(await contents(o)).toEqual(before);
    expect(VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.usage.usedBytes).toBe(5);
  });

  it("answers another workspace's session 404 for this vault's items and folders, and changes nothing", async () => {
    const mine = await owner();
    await createVault(mine);
    const folder = VaultFolderResponseSchema.parse(await (await mine.call('POST', '/folders', { sealedName: seal('mine') })).json()).folder;
    const { files: [target] } = await register(mine, [item(4, { folderId: folder.id })]);
    await tusUpload(Buffer.from('mine'), { endpoint: `${server.url}/files/`, token: target!.uploadToken });
    const before = await contents(mine);

    const stranger = await owner();
    // Without a vault of its own, there is nothing at all.
    await expectError(await stranger.call('GET', ''), 404, 'not_found');
    await expectError(await stranger.call('GET', '/items'), 404, 'not_found');
    await expectError(await stranger.call('GET', `/items/${target!.id}/download`), 404, 'not_found');
    await createVault(stranger);
    expect(await contents(stranger)).toEqual({ folders: [], items: [] });
    await expectError(await stranger.call('GET', `/items/${target!.id}/download`), 404, 'not_found');
    await expectError(await stranger.call('PATCH', `/items/${target!.id}`, { sealedMeta: seal('theirs') }), 404, 'not_found');
    await expectError(await stranger.call('PATCH', `/folders/${folder.id}`, { sealedName: seal('theirs') }), 404, 'not_found');
    await expectError(await stranger.call('DELETE', `/folders/${folder.id}?recursive=true`), 404, 'not_found');
    expect(DeletedVaultItemsSchema.parse(await (await stranger.call('DELETE', '/items', { ids: [target!.id] })).json()).deleted).toBe(0);
    // Someone else's folder is no place for one's own items or folders.
    const misplaced = await expectError(await stranger.call('POST', '/items', { items: [item(1, { folderId: folder.id })] }), 400, 'invalid_request');
    expect(misplaced.details.fields?.map((f) => f.path)).toEqual(['items.0.folderId']);
    await expectError(await stranger.call('POST', '/folders', { sealedName: seal('in yours'), parentId: folder.id }), 400, 'invalid_request');

    expect(await contents(mine)).toEqual(before);
    expect(await storedBytes(server.services, target!.id)).toEqual(Buffer.from('mine'));
  });

  it('refuses a record with lowered KDF parameters, naming the field, on create and on change', async () => {
    const o = await owner();
    const lowered: [Record<string, unknown>, string][] = [
      [{ memoryKiB: 32_768 }, 'record.kdf.memoryKiB'],
      [{ iterations: 2 }, 'record.kdf.iterations'],
      [{ parallelism: 0 }, 'record.kdf.parallelism'],
      [{ parallelism: 5 }, 'record.kdf.parallelism'],
      [{ algorithm: 'pbkdf2' }, 'record.kdf.algorithm'],
      [{ salt: b64u(8) }, 'record.kdf.salt'],
      [{ salt: `${b64u(15)}x`.slice(0, 21) + 'B' }, 'record.kdf.salt'],
    ];
    for (const [kdf, path] of lowered) {
      const error = await expectError(await o.call('PUT', '', { record: record(kdf) }), 400, 'invalid_request');
      expect(error.details.fields?.map((f) => f.path)).toEqual([path]);
    }
    await expectError(await o.call('GET', ''), 404, 'not_found');

    const kept = await createVault(o);
    for (const [kdf, path] of lowered) {
      const error = await expectError(await o.call('PATCH', '', { record: record(kdf) }), 400, 'invalid_request');
      expect(error.details.fields?.map((f) => f.path)).toEqual([path]);
    }
    const other = await expectError(await o.call('PATCH', '', { record: { ...record(), version: 2, extra: 'x' } }), 400, 'invalid_request');
    expect(other.details.fields?.map((f) => f.path)).toEqual(expect.arrayContaining(['record.version', 'record']));
    const long = await expectError(await o.call('PATCH', '', { record: { ...record(), wrappedMasterKey: b64u(400) } }), 400, 'invalid_request');
    expect(long.details.fields?.map((f) => f.path)).toEqual(['record.wrappedMasterKey']);
    expect(VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.record).toEqual(kept.record);
  });

  it('holds registrations to the plan quota, refusing the whole call past it with nothing written', async () => {
    const o = await owner();
    // Settings shows the quota before there is a vault.
    const usage = async () => VaultUsageResponseSchema.parse(await (await o.call('GET', '/usage')).json()).usage;
    expect(await usage()).toEqual({ exists: false, usedBytes: 0, limitBytes: FREE_QUOTA });
    await createVault(o);
    await register(o, [item(60_000)]);
    const filesBefore = await server.services.db.select({ id: files.id }).from(files).where(eq(files.workspaceId, o.ws.id));

    const error = await expectError(await o.call('POST', '/items', { items: [item(30_000), item(10_001)] }), 413, 'payload_too_large');
    expect(error.details).toMatchObject({ reason: 'vault_quota_exceeded', usedBytes: 60_000, limitBytes: FREE_QUOTA, requestedBytes: 40_001 });
    expect(error.details.fields?.map((f) => f.path)).toEqual(['items']);
    const filesAfter = await server.services.db.select({ id: files.id }).from(files).where(eq(files.workspaceId, o.ws.id));
    expect(filesAfter).toEqual(filesBefore);
    expect((await contents(o)).items).toHaveLength(1);

    // Exactly up to the quota is fine; the settings read it from GET /vault.
    await register(o, [item(30_000), item(10_000)]);
    expect(VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.usage).toEqual({ usedBytes: FREE_QUOTA, limitBytes: FREE_QUOTA });
    await expectError(await o.call('POST', '/items', { items: [item(1)] }), 413, 'payload_too_large');

    // A paid plan has the larger quota, read live with the session.
    await server.setPlan(o.ws.id, 'paid');
    await register(o, [item(500_000)]);
    expect(VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.usage).toEqual({ usedBytes: FREE_QUOTA + 500_000, limitBytes: PAID_QUOTA });
    expect(await usage()).toEqual({ exists: true, usedBytes: FREE_QUOTA + 500_000, limitBytes: PAID_QUOTA });

    // 1 to 100 items per call, and each one's fields named when wrong.
    expect((await expectError(await o.call('POST', '/items', { items: [] }), 400, 'invalid_request')).details.fields?.[0]?.path).toBe('items');
    const tooMany = Array.from({ length: 101 }, () => item(1));
    expect((await expectError(await o.call('POST', '/items', { items: tooMany }), 400, 'invalid_request')).details.fields?.[0]?.path).toBe('items');
    const bad = await expectError(await o.call('POST', '/items', { items: [item(-1), item(1, { wrappedKey: b64u(600) })] }), 400, 'invalid_request');
    expect(bad.details.fields?.map((f) => f.path)).toEqual(['items.0.size', 'items.1.wrappedKey']);
  });

  it('stores no plaintext name: only the sealed strings the browser sent, and `encrypted` for the engine', async () => {
    const o = await owner();
    const v = await createVault(o);
    const names = ['Holiday in Lisbon 2025.jpg', 'tax return.pdf', 'Private Folder'];
    const sealedFolder = seal(names[2]!);
    const folder = VaultFolderResponseSchema.parse(await (await o.call('POST', '/folders', { sealedName: sealedFolder })).json()).folder;
    const sent = names.slice(0, 2).map((name) => ({ size: 100, folderId: folder.id, sealedMeta: seal(JSON.stringify({ name, type: 'image/jpeg' })), sealedThumb: seal(`thumbnail of ${name}`), wrappedKey: b64u(60) }));
    const { files: targets } = await register(o, sent);

    // A plaintext name sent by mistake is refused, not stored.
    const plain = await expectError(await o.call('POST', '/items', { items: [{ ...sent[0], sealedMeta: names[0] }] }), 400, 'invalid_request');
    expect(plain.details.fields?.map((f) => f.path)).toEqual(['items.0.sealedMeta']);
    await expectError(await o.call('POST', '/folders', { sealedName: names[2] }), 400, 'invalid_request');

    const ids = targets.map((t) => t.id);
    const fileRows = await server.services.db.select().from(files).where(inArray(files.id, ids));
    expect(fileRows.map((f) => [f.ownerKind, f.name, f.mimeType, f.sizeBytes])).toEqual(ids.map(() => ['vault', 'encrypted', 'application/octet-stream', 100]));
    const itemRows = await server.services.db.select().from(vaultItems).where(inArray(vaultItems.fileId, ids));
    expect(itemRows.map((r) => ({ sealedMeta: r.sealedMeta, sealedThumb: r.sealedThumb, wrappedKey: r.wrappedKey, folderId: r.folderId })).sort((x, y) => x.sealedMeta.localeCompare(y.sealedMeta))).toEqual(
      sent.map(({ sealedMeta, sealedThumb, wrappedKey, folderId }) => ({ sealedMeta, sealedThumb, wrappedKey, folderId })).sort((x, y) => x.sealedMeta.localeCompare(y.sealedMeta)),
    );
    const folderRows = await server.services.db.select().from(vaultFolders).where(eq(vaultFolders.id, folder.id));
    expect(folderRows.map((f) => f.sealedName)).toEqual([sealedFolder]);
    const [vaultRow] = await server.services.db.select().from(vaults).where(eq(vaults.userId, o.ws.userId));
    expect(vaultRow!.record).toEqual(v.record);
    const tokenRows = await server.services.db.select().from(uploadTokens).where(inArray(uploadTokens.fileId, ids));

    // Nothing the server holds for this vault reads as any of the names, whole or in part.
    const stored = JSON.stringify([fileRows, itemRows, folderRows, vaultRow, tokenRows]).toLowerCase();
    for (const word of ['holiday', 'lisbon', 'tax return', 'private folder', '.jpg', '.pdf', 'image/jpeg', 'thumbnail of']) expect(stored).not.toContain(word);
  });

  it('is never virus-scanned: its files are ciphertext', async () => {
    const o = await owner();
    await createVault(o);
    const bytes = randomBytes(5_000);
    const [target] = (await register(o, [item(bytes.length)])).files;
    await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: target!.uploadToken });
    const [row] = await server.services.db.select().from(files).where(eq(files.id, target!.id));
    expect(row!.state).toBe('complete');
    expect(await claimDueScans(server.services, 1000)).not.toContain(target!.id);
  });

  // Last: it moves the shared clock a week on.
  it('gives up an upload abandoned for a week: the item goes, and its bytes stop counting toward the quota', async () => {
    const o = await owner();
    await createVault(o);
    await register(o, [item(60_000)]);
    const usage = async () => VaultResponseSchema.parse(await (await o.call('GET', '')).json()).vault.usage.usedBytes;
    expect(await usage()).toBe(60_000);
    await sweepAbandonedUploads(server.services);
    expect((await contents(o)).items).toHaveLength(1);

    server.clock.advance(ABANDONED_UPLOAD_MS + 60_000);
    await sweepAbandonedUploads(server.services);
    expect((await contents(o)).items).toEqual([]);
    expect(await usage()).toBe(0);
  });
});
