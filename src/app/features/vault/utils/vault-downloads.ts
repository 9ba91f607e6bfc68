import { fileContentKey, unwrapFileKey, type MasterKey } from '../../../../crypto';
import { decryptedFile, decryptedZip, openedWhenRead, zipSize, type ZipEntry, type SaveRequest } from '../../recipient';
import { currentIntl } from '../../../lib/intl';
import { getVaultItemDownload } from '../api/vault-api';
import type { OpenedVault, OpenedVaultFile } from './open-contents';

/**
 * A vault file's plaintext as a stream, the way a recipient's e2ee download works (decrypted-downloads.ts): its key
 * unwrapped here, the ciphertext fetched from a signed link without credentials, decrypted as it streams, only
 * whole verified chunks coming out. Nothing is fetched or unwrapped until the stream is first read.
 */
export function vaultFileStream(master: MasterKey, file: OpenedVaultFile, onBytes: (n: number) => void): ReadableStream<Uint8Array> {
  const { meta, item } = file;
  if (!meta?.salt || meta.size === undefined)
    throw new Error(
      currentIntl().formatMessage(
        { id: 'vault.download.unfinished', defaultMessage: '{name} cannot be downloaded: its upload did not finish.' },
        { name: file.listed.name },
      ),
    );
  const expected = { salt: meta.salt, size: meta.size };
  return openedWhenRead(async () => {
    const [{ url }, fileKey] = await Promise.all([getVaultItemDownload(item.id), unwrapFileKey(master, item.id, item.wrappedKey)]);
    const contentKey = await fileContentKey(fileKey);
    fileKey.fill(0);
    return decryptedFile(contentKey, expected, url, onBytes).getReader();
  });
}

/** What downloading a selection saves: one file as itself, a folder (or the whole vault) as a zip of its tree. */
export interface VaultSave {
  request: SaveRequest;
  /** Plaintext bytes in all, for progress. */
  total: number;
  open(onBytes: (n: number) => void): ReadableStream<Uint8Array>;
}

export function fileSave(master: MasterKey, file: OpenedVaultFile): VaultSave {
  const size = file.meta?.size ?? 0;
  return {
    request: { filename: file.listed.name, size, type: file.listed.mimeType },
    total: size,
    open: (onBytes) => vaultFileStream(master, file, onBytes),
  };
}

/** Every finished file under `folderId` (null: the whole vault), at its path below that folder. */
export function folderSave(master: MasterKey, vault: OpenedVault, folderId: string | null, zipName: string): VaultSave {
  const base = folderId === null ? null : vault.folders.find((f) => f.id === folderId);
  const prefix = base ? `${base.path}/` : '';
  const pathOf = new Map(vault.folders.map((f) => [f.id, f.path]));
  const inside = (fileFolder: string | null) => {
    if (base === null) return true;
    const path = fileFolder === null ? '' : `${pathOf.get(fileFolder) ?? ''}/`;
    return base !== undefined && path.startsWith(prefix);
  };
  const files = [...vault.byId.values()].filter((f) => f.listed.state === 'complete' && f.meta?.salt && inside(f.item.folderId));
  const entries = (onBytes: (n: number) => void): ZipEntry[] =>
    files.map((file) => {
      const full = file.item.folderId === null ? '' : (pathOf.get(file.item.folderId) ?? '');
      const path = full.slice(prefix.length) || null;
      return { name: file.listed.name, path, size: file.meta!.size!, open: () => vaultFileStream(master, file, onBytes) };
    });
  const sizes = entries(() => {});
  if (sizes.length === 0) throw new Error(currentIntl().formatMessage({ id: 'vault.download.nothing', defaultMessage: 'There is nothing to download here yet.' }));
  return {
    request: { filename: zipName.endsWith('.zip') ? zipName : `${zipName}.zip`, size: zipSize(sizes), type: 'application/zip' },
    total: sizes.reduce((sum, e) => sum + e.size, 0),
    open: (onBytes) => decryptedZip(entries(onBytes)),
  };
}
