import { defineMessages } from 'react-intl';
import type { Folder, ListedCollectionFile } from '../../../../contract/collections';
import type { VaultFolder, VaultItem } from '../../../../contract/vault';
import { openVaultName, openVaultThumbnail, type MasterKey, type VaultItemMeta, type VaultItemRef } from '../../../../crypto';
import { currentIntl } from '../../../lib/intl';
import { byPath } from '../../collections';
import type { VaultContents } from '../api/vault-api';

/**
 * The vault as its owner sees it: every sealed name opened with the master key, in the shapes the collection
 * browser draws (Folder with its path and depth, ListedCollectionFile), so the vault is browsed with the same
 * components. Names never leave this tab; thumbnails become blob: URLs of the decrypted JPEGs.
 */

/** A file of the vault with what its sealed metadata said (null: not sealed yet, or it would not open). */
export interface OpenedVaultFile {
  item: VaultItem;
  meta: VaultItemMeta | null;
  /** The row the browser shows. */
  listed: ListedCollectionFile;
}

export interface OpenedVault {
  folders: Folder[];
  files: ListedCollectionFile[];
  byId: ReadonlyMap<string, OpenedVaultFile>;
}

/**
 * What an item shows whose name could not be opened: one that never finished registering, or was changed on the
 * server; and a folder made but not named yet. In the page's language, read each time the vault is opened.
 */
const placeholderNames = defineMessages({
  unfinished: { id: 'vault.item.unfinished', defaultMessage: 'Unfinished upload' },
  unreadable: { id: 'vault.item.unreadable', defaultMessage: 'Unreadable item' },
  unnamedFolder: { id: 'vault.item.newFolder', defaultMessage: 'New folder' },
});

/** Those names in English, as a page in English shows them. */
export const UNFINISHED_NAME = placeholderNames.unfinished.defaultMessage;
export const UNREADABLE_NAME = placeholderNames.unreadable.defaultMessage;

/**
 * Keeps what was decrypted (per sealed value, so a changed value is opened again) for as long as the vault stays
 * unlocked with the same key, and the blob: URLs to revoke when it locks.
 */
export class OpenedCache {
  private readonly names = new Map<string, Promise<VaultItemMeta | null>>();
  private readonly thumbnails = new Map<string, Promise<string | null>>();

  constructor(private readonly master: MasterKey) {}

  name(ref: VaultItemRef, sealed: string): Promise<VaultItemMeta | null> {
    if (sealed === '') return Promise.resolve(null);
    const key = `${ref.kind}:${ref.id}:${sealed}`;
    let opened = this.names.get(key);
    if (!opened) {
      opened = openVaultName(this.master, ref, sealed).catch(() => null);
      this.names.set(key, opened);
    }
    return opened;
  }

  thumbnail(fileId: string, sealed: string): Promise<string | null> {
    if (sealed === '') return Promise.resolve(null);
    const key = `${fileId}:${sealed}`;
    let opened = this.thumbnails.get(key);
    if (!opened) {
      opened = openVaultThumbnail(this.master, fileId, sealed)
        .then((bytes) => URL.createObjectURL(new Blob([bytes], { type: 'image/jpeg' })))
        .catch(() => null);
      this.thumbnails.set(key, opened);
    }
    return opened;
  }

  /** Revokes every thumbnail URL: the images go with the key. */
  clear() {
    for (const url of this.thumbnails.values()) void url.then((u) => u && URL.revokeObjectURL(u));
    this.thumbnails.clear();
    this.names.clear();
  }
}

function foldersWithPaths(raw: readonly VaultFolder[], names: ReadonlyMap<string, string>): Folder[] {
  const byId = new Map(raw.map((f) => [f.id, f]));
  const pathOf = (folder: VaultFolder): string[] => {
    const chain: string[] = [];
    for (let at: VaultFolder | undefined = folder; at && chain.length <= raw.length; at = at.parentId === null ? undefined : byId.get(at.parentId)) {
      chain.unshift(names.get(at.id)!);
    }
    return chain;
  };
  return raw
    .map((f) => {
      const path = pathOf(f);
      return { id: f.id, name: names.get(f.id)!, parentId: f.parentId, path: path.join('/'), depth: path.length - 1 };
    })
    .sort(byPath);
}

export async function openContents(cache: OpenedCache, contents: VaultContents): Promise<OpenedVault> {
  const intl = currentIntl();
  const folderNames = new Map(
    await Promise.all(
      contents.folders.map(async (folder) => {
        const meta = await cache.name({ kind: 'folder', id: folder.id }, folder.sealedName);
        const placeholder = folder.sealedName === '' ? placeholderNames.unnamedFolder : placeholderNames.unreadable;
        return [folder.id, meta?.name ?? intl.formatMessage(placeholder)] as const;
      }),
    ),
  );
  const opened = await Promise.all(
    contents.items.map(async (item): Promise<OpenedVaultFile> => {
      const [meta, thumbnailUrl] = await Promise.all([cache.name({ kind: 'file', id: item.id }, item.sealedMeta), cache.thumbnail(item.id, item.sealedThumb)]);
      const unfinished = item.sealedMeta === '' || item.wrappedKey === '';
      const listed: ListedCollectionFile = {
        id: item.id,
        name: meta?.name ?? intl.formatMessage(unfinished ? placeholderNames.unfinished : placeholderNames.unreadable),
        sizeBytes: meta?.size ?? item.size,
        mimeType: meta?.type ?? 'application/octet-stream',
        folderId: item.folderId,
        addedBy: null,
        hasThumbnail: thumbnailUrl !== null,
        thumbnailUrl,
        crc32: null,
        // An item that cannot be opened (a name that does not open, or bytes without a key) cannot be downloaded: failed, to be deleted.
        state: (meta === null && !unfinished) || (unfinished && item.state === 'complete') ? 'failed' : item.state,
        error: null,
        scanResult: null,
        // A vault has no upload requests.
        unsent: false,
            review: null,
            commentCount: 0,
        createdAt: item.createdAt,
      };
      return { item, meta, listed };
    }),
  );
  return {
    folders: foldersWithPaths(contents.folders, folderNames),
    files: opened.map((o) => o.listed),
    byId: new Map(opened.map((o) => [o.item.id, o])),
  };
}
