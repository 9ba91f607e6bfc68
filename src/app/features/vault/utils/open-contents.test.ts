import { describe, expect, it } from 'vitest';
import type { VaultFolder, VaultItem } from '../../../../contract/vault';
import { createVault, newFileKey, sealVaultName, wrapFileKey, type Argon2id, type MasterKey } from '../../../../crypto';
import { OpenedCache, openContents, UNFINISHED_NAME, UNREADABLE_NAME } from './open-contents';

/** SHA-256 in place of Argon2id: these tests are about what the page shows, not the KDF. */
const quickArgon2: Argon2id = async (passphrase, params) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array([...new TextEncoder().encode(params.salt), ...passphrase])));

const at = '2026-11-26T10:00:00.000Z';
const folder = (id: string, parentId: string | null, sealedName: string): VaultFolder => ({ id, parentId, sealedName, createdAt: at, updatedAt: at });
const item = (id: string, fields: Partial<VaultItem>): VaultItem => ({
  id,
  folderId: null,
  size: 1000,
  state: 'complete',
  sealedMeta: '',
  sealedThumb: '',
  wrappedKey: '',
  createdAt: at,
  updatedAt: at,
  ...fields,
});

async function vault(): Promise<MasterKey> {
  return (await createVault('lantern orbit cactus meadow', { accountId: 'usr_1', argon2: quickArgon2 })).masterKey;
}

describe('the vault as its owner sees it', () => {
  it('opens folder names into paths and depths, and files into rows with their plaintext size and type', async () => {
    const master = await vault();
    const sealFolder = (id: string, name: string) => sealVaultName(master, { kind: 'folder', id }, { name });
    const folders = [folder('vf_b', 'vf_a', await sealFolder('vf_b', 'Day 1')), folder('vf_a', null, await sealFolder('vf_a', 'Trip'))];
    const meta = { name: 'beach.jpg', type: 'image/jpeg', size: 700, salt: new Uint8Array(16).fill(7) };
    const items = [
      item('fi_1', {
        folderId: 'vf_b',
        sealedMeta: await sealVaultName(master, { kind: 'file', id: 'fi_1' }, meta),
        wrappedKey: await wrapFileKey(master, 'fi_1', newFileKey()),
      }),
    ];

    const opened = await openContents(new OpenedCache(master), { folders, items });
    expect(opened.folders).toEqual([
      { id: 'vf_a', name: 'Trip', parentId: null, path: 'Trip', depth: 0 },
      { id: 'vf_b', name: 'Day 1', parentId: 'vf_a', path: 'Trip/Day 1', depth: 1 },
    ]);
    expect(opened.files).toEqual([
      expect.objectContaining({ id: 'fi_1', name: 'beach.jpg', sizeBytes: 700, mimeType: 'image/jpeg', folderId: 'vf_b', state: 'complete', thumbnailUrl: null }),
    ]);
    expect(opened.byId.get('fi_1')?.meta).toEqual(meta);
  });

  it('shows an unfinished registration as such, and a name sealed for another item (moved by the server) as unreadable, never as the other name', async () => {
    const master = await vault();
    const someoneElses = await sealVaultName(master, { kind: 'file', id: 'fi_other' }, { name: 'secret.pdf', size: 5 });
    const items = [
      item('fi_unfinished', { state: 'uploading' }),
      item('fi_swapped', { sealedMeta: someoneElses, wrappedKey: await wrapFileKey(master, 'fi_swapped', newFileKey()) }),
    ];
    const swappedFolder = folder('vf_x', null, await sealVaultName(master, { kind: 'folder', id: 'vf_y' }, { name: 'Taxes' }));

    const opened = await openContents(new OpenedCache(master), { folders: [swappedFolder], items });
    const byId = new Map(opened.files.map((f) => [f.id, f]));
    expect(byId.get('fi_unfinished')).toMatchObject({ name: UNFINISHED_NAME, state: 'uploading' });
    // It cannot be opened, so it cannot be downloaded: failed, to be deleted.
    expect(byId.get('fi_swapped')).toMatchObject({ name: UNREADABLE_NAME, state: 'failed' });
    expect(opened.folders[0]?.name).toBe(UNREADABLE_NAME);
  });
});
