import type { UploadTarget } from '../../../../contract/transfers';
import { MAX_VAULT_ITEMS_PER_CALL } from '../../../../contract/vault';
import {
  ciphertextSize,
  createEncryptedSource,
  fileContentKey,
  fromBase64url,
  newFileKey,
  newSalt,
  sealVaultName,
  sealVaultThumbnail,
  toBase64url,
  unwrapFileKey,
  wrapFileKey,
  type MasterKey,
} from '../../../../crypto';
import { currentIntl } from '../../../lib/intl';
import {
  folderIdOf,
  type FileToRegister,
  type FileToUpload,
  type HeldUpload,
  type UploadRegistrar,
  type UploadSource,
} from '../../../lib/uploads/upload-session';
import { SEALED_FILE_NAME, encryptingTusOptions, plainSourceOf, makeThumbnail } from '../../send';
import { createVaultFolder, deleteVaultFolder, deleteVaultItems, registerVaultItems, updateVaultFolder, updateVaultItem } from '../api/vault-api';

/** A folder as the page knows it once its sealed name was opened. */
export interface DecryptedFolderRef {
  id: string;
  parentId: string | null;
  name: string;
}

export interface VaultUploadsOptions {
  /** The unlocked vault. */
  master: MasterKey;
  /** Decrypted folders known right now (the page's view), to find a dropped folder's existing subfolders by name. */
  folders: () => readonly DecryptedFolderRef[];
  /** The server's wrapped key of an item registered in an earlier visit ('' when it has none), e.g. read from GET /vault/items. */
  wrappedKeyOf: (itemId: string) => Promise<string>;
  /** Something on the server changed (items registered, folders made, a thumbnail stored): the page refetches its list. */
  onChange?: () => void;
}

/** The vault is one owner per user, made with the vault itself: the session never creates it. */
export const VAULT_OWNER_ID = 'vault';

/** Where the vault's unfinished uploads are remembered, so they resume after the tab was closed. */
export const vaultUploadsStorageKey = (userId: string) => `parcel.vault.uploads.${userId}`;

const SEALED_FILE_TYPE = 'application/octet-stream';
/** DELETE /vault/items takes at most this many ids per call. */
const MAX_DELETED_PER_CALL = 1000;

/** A file between `prepare` and its registration: the registrar sees it only under its neutral name and size. */
interface PreparedFile {
  file: FileToUpload;
  fileKey: Uint8Array<ArrayBuffer>;
  salt: Uint8Array<ArrayBuffer>;
}


const segmentsOf = (path: string | null | undefined) => (path ?? '').split('/').filter((segment) => segment !== '');

/**
 * The vault's uploads, as the upload session's source and registrar. Each file gets its own random key and container
 * salt; the server registers it under a neutral name with its container's exact size, into a folder whose name it
 * cannot read, and is then sent the file key wrapped under the master key and the sealed name (both bound to the
 * item's id, so they follow registration). tus reads the file through a `fileReader` that encrypts on demand from
 * any offset, as for an end-to-end encrypted transfer, so pausing, token renewal and resuming after the tab was
 * closed work as for plain uploads: a file registered in an earlier visit gets its key back from the server.
 */
export class VaultUploads implements UploadSource {
  readonly registrar: UploadRegistrar;
  private readonly master: MasterKey;
  private readonly folders: () => readonly DecryptedFolderRef[];
  private readonly wrappedKeyOf: (itemId: string) => Promise<string>;
  private readonly onChange: () => void;
  private readonly prepared = new Map<string, PreparedFile>();
  /** Content keys by item id: non-extractable, so the raw file key need not outlive its wrapping. */
  private readonly contentKeys = new Map<string, Promise<CryptoKey>>();
  /** Folders this instance made (or is making) by parent and name, so every file of a dropped folder lands in one. */
  private readonly madeFolders = new Map<string, Promise<string>>();
  private foldersMade = 0;
  private readonly thumbnailed = new Set<string>();

  constructor(options: VaultUploadsOptions) {
    this.master = options.master;
    this.folders = options.folders;
    this.wrappedKeyOf = options.wrappedKeyOf;
    this.onChange = options.onChange ?? (() => undefined);
    this.registrar = {
      register: (files) => this.register(files),
      unregister: async (_ownerId, fileId) => {
        await deleteVaultItems([fileId]);
      },
    };
  }

  prepare(file: FileToUpload): Promise<{ register: FileToRegister; state: string }> {
    // A fresh key and salt per registration: a file added again after a failure is never sealed twice under one key.
    const prepared: PreparedFile = { file, fileKey: newFileKey(), salt: newSalt() };
    this.prepared.set(file.key, prepared);
    const register = { name: SEALED_FILE_NAME, size: ciphertextSize(file.size), mimeType: SEALED_FILE_TYPE, path: null };
    return Promise.resolve({ register, state: toBase64url(prepared.salt) });
  }

  tusOptions(held: HeldUpload): Record<string, unknown> {
    return encryptingTusOptions(async (input) => {
      const { fileId, state } = await held.registered();
      const source = await createEncryptedSource(await this.contentKeyOf(fileId), plainSourceOf(input), { salt: fromBase64url(state) });
      if (input instanceof Blob) this.storeThumbnailOnce(fileId, input, held.file.mimeType ?? '', held.file.name);
      return source;
    });
  }

  /**
   * Registers a batch: makes the folders of dropped trees, registers the items (up to 100 a request), then sends each
   * item's wrapped key and sealed name. An item without a wrapped key could never be read, so when any step after
   * the first registration fails, the batch's items are deleted again before the error reaches the session.
   */
  private async register(files: FileToUpload[]): Promise<{ ownerId: string; targets: UploadTarget[] }> {
    const batch = files.map((file) => {
      const prepared = this.prepared.get(file.key);
      if (!prepared)
        throw new Error(
          currentIntl().formatMessage({ id: 'vault.uploads.notPrepared', defaultMessage: 'This file was not prepared for the vault: remove it and add it again.' }),
        );
      return prepared;
    });
    const foldersBefore = this.foldersMade;
    const registered: string[] = [];
    try {
      const folderIds: (string | null)[] = [];
      for (const { file } of batch) folderIds.push(await this.folderFor(file));
      const targets: UploadTarget[] = [];
      for (let at = 0; at < batch.length; at += MAX_VAULT_ITEMS_PER_CALL) {
        const chunk = batch.slice(at, at + MAX_VAULT_ITEMS_PER_CALL);
        const toRegister = chunk.map((prepared, i) => ({ size: ciphertextSize(prepared.file.size), folderId: folderIds[at + i] ?? null }));
        const answer = await registerVaultItems(toRegister);
        const chunkTargets = answer.files.slice(0, chunk.length);
        registered.push(...chunkTargets.map((target) => target.id));
        const sealing = await Promise.allSettled(chunkTargets.map((target, i) => this.seal(target.id, chunk[i]!)));
        const failure = sealing.find((result) => result.status === 'rejected');
        if (failure) throw failure.reason;
        for (const [i, target] of chunkTargets.entries()) targets[at + i] = target;
      }
      return { ownerId: VAULT_OWNER_ID, targets };
    } catch (error) {
      await this.deleteQuietly(registered);
      throw error;
    } finally {
      for (const prepared of batch) {
        prepared.fileKey.fill(0);
        this.prepared.delete(prepared.file.key);
      }
      if (registered.length > 0 || this.foldersMade !== foldersBefore) this.onChange();
    }
  }

  /** Sends an item's wrapped key and sealed name, and keeps its content key for tus to read it with. */
  private async seal(itemId: string, { file, fileKey, salt }: PreparedFile): Promise<void> {
    const meta = { name: file.name, type: file.mimeType || SEALED_FILE_TYPE, size: file.size, salt };
    const [wrappedKey, sealedMeta, contentKey] = await Promise.all([
      wrapFileKey(this.master, itemId, fileKey),
      sealVaultName(this.master, { kind: 'file', id: itemId }, meta),
      fileContentKey(fileKey),
    ]);
    await updateVaultItem(itemId, { wrappedKey, sealedMeta });
    this.contentKeys.set(itemId, Promise.resolve(contentKey));
  }

  private async deleteQuietly(itemIds: string[]): Promise<void> {
    for (let at = 0; at < itemIds.length; at += MAX_DELETED_PER_CALL) {
      // The registration's own error is the one worth showing; an item left behind has no key and shows as unfinished.
      await deleteVaultItems(itemIds.slice(at, at + MAX_DELETED_PER_CALL)).catch(() => undefined);
    }
  }

  /** The folder a file goes to: the one being viewed, then one folder per segment of its dropped path. */
  private async folderFor(file: FileToUpload): Promise<string | null> {
    let folderId = folderIdOf(file.destination);
    for (const name of segmentsOf(file.path)) folderId = await this.childFolder(folderId, name);
    return folderId;
  }

  private childFolder(parentId: string | null, name: string): Promise<string> {
    const known = this.folders().find((folder) => folder.parentId === parentId && folder.name === name);
    if (known) return Promise.resolve(known.id);
    // Looked up and set with no await between, so files arriving together wait for one folder instead of making two.
    const slot = JSON.stringify([parentId, name]);
    let made = this.madeFolders.get(slot);
    if (!made) {
      made = this.makeFolder(parentId, name);
      this.madeFolders.set(slot, made);
      made.catch(() => this.madeFolders.delete(slot));
    }
    return made;
  }

  private async makeFolder(parentId: string | null, name: string): Promise<string> {
    const { id } = await createVaultFolder({ parentId });
    try {
      // Sealed once the id is known because the sealed name is bound to it: a name moved to another folder does not open.
      await updateVaultFolder(id, { sealedName: await sealVaultName(this.master, { kind: 'folder', id }, { name }) });
    } catch (error) {
      // A folder without a name is one its owner could not recognise; the next attempt makes a new one.
      await deleteVaultFolder(id).catch(() => undefined);
      throw error;
    }
    this.foldersMade += 1;
    return id;
  }

  /** The key a registered item is encrypted with: kept from this visit's registration, or unwrapped from the server's copy. */
  private contentKeyOf(itemId: string): Promise<CryptoKey> {
    let contentKey = this.contentKeys.get(itemId);
    if (!contentKey) {
      contentKey = this.unwrapRemembered(itemId);
      this.contentKeys.set(itemId, contentKey);
      contentKey.catch(() => this.contentKeys.delete(itemId));
    }
    return contentKey;
  }

  private async unwrapRemembered(itemId: string): Promise<CryptoKey> {
    const wrapped = await this.wrappedKeyOf(itemId);
    // Registered, but its key never reached the server: nobody can encrypt (or later read) it the same way again.
    if (!wrapped)
      throw new Error(currentIntl().formatMessage({ id: 'vault.uploads.cannotContinue', defaultMessage: 'This upload cannot continue: remove the file and add it again.' }));
    const fileKey = await unwrapFileKey(this.master, itemId, wrapped);
    try {
      return await fileContentKey(fileKey);
    } finally {
      fileKey.fill(0);
    }
  }

  /** Once per item and visit, as its upload starts; a thumbnail is a nicety, so it never holds up or fails the upload. */
  private storeThumbnailOnce(itemId: string, file: Blob, type: string, name: string) {
    if (this.thumbnailed.has(itemId)) return;
    this.thumbnailed.add(itemId);
    const store = async () => {
      const thumbnail = await makeThumbnail(file, type, name);
      if (!thumbnail) return;
      await updateVaultItem(itemId, { sealedThumb: await sealVaultThumbnail(this.master, itemId, thumbnail) });
      this.onChange();
    };
    store().catch(() => undefined);
  }
}
