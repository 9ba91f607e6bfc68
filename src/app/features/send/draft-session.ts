import { fromBase64url, newLinkKey, toBase64url, type TransferNote } from '../../../crypto';
import { currentIntl } from '../../lib/intl';
import { UploadSession, type RememberedUploads, type UploadRegistrar, type UploadSessionOptions } from '../../lib/uploads/upload-session';
import type { ImportEntry, ImportToAdd } from '../imports';
import { removeFileFromDraft } from '../transfers';
import { addFilesToDraft, createTransferDraft, storeSealedFile } from './api/transfer-drafts';
import { EncryptedUploads } from './encryption/encrypted-uploads';

export interface DraftApi {
  create: typeof createTransferDraft;
  add: typeof addFilesToDraft;
  remove: typeof removeFileFromDraft;
  storeSealed: typeof storeSealedFile;
}

export interface DraftSessionOptions extends Omit<UploadSessionOptions, 'storageKey' | 'registrar' | 'ownerId'> {
  workspaceId: string;
  api?: Partial<DraftApi>;
}

export const draftStorageKey = (workspaceId: string) => `parcel.send.draft.${workspaceId}`;

type FilesToRegister = Parameters<UploadRegistrar['register']>[0];

const toRegister = (files: FilesToRegister) =>
  files.map(({ name, size, mimeType, path }) => ({ name, size, ...(mimeType ? { mimeType } : {}), path: path ?? null }));

/**
 * A transfer's files go into a draft that the first batch creates, whether that batch is uploads or
 * URL imports; later batches are added to it, removed files leave it. Batches of both kinds run one
 * at a time, so whichever comes second finds the draft the first one made.
 */
export class DraftRegistrations {
  /** The draft this made, known here before the upload session has heard of it. */
  draftId: string | null = null;
  /** The draft the first batch creates is end-to-end encrypted. */
  e2ee = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly api: DraftApi;

  constructor(api: Partial<DraftApi> = {}) {
    this.api = { create: createTransferDraft, add: addFilesToDraft, remove: removeFileFromDraft, storeSealed: storeSealedFile, ...api };
  }

  readonly registrar: UploadRegistrar = {
    register: (files, transferId) =>
      this.serially(async () => {
        const owner = transferId ?? this.draftId;
        if (owner === null) {
          const draft = await this.api.create(toRegister(files), [], this.e2ee ? { e2ee: true } : {});
          this.draftId = draft.id;
          return { ownerId: draft.id, targets: draft.files };
        }
        return { ownerId: owner, targets: (await this.api.add(owner, toRegister(files))).files };
      }),
    unregister: (transferId, fileId) => this.api.remove(transferId, fileId),
  };

  /** Registers URL imports into the draft (`transferId`, or the one made meanwhile), creating it when there is none yet. */
  addImports(imports: ImportToAdd[], transferId: string | null): Promise<{ transferId: string; imports: ImportEntry[] }> {
    return this.serially(async () => {
      const owner = transferId ?? this.draftId;
      if (owner === null) {
        const draft = await this.api.create([], imports);
        this.draftId = draft.id;
        return { transferId: draft.id, imports: draft.imports };
      }
      return { transferId: owner, imports: (await this.api.add(owner, [], imports)).imports };
    });
  }

  removeImport(transferId: string, fileId: string): Promise<void> {
    return this.api.remove(transferId, fileId);
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** What an encrypted draft keeps beside its files: the link key and which files' metadata the server has sealed. */
interface RememberedEncryption {
  key: string;
  sealed: string[];
}

/**
 * The draft transfer behind the "New transfer" uploader: the shared upload session, remembered per
 * workspace, registering into a draft, plus the URL imports added to the same draft. The draft id
 * and tokens survive closing the tab; imports live on the server and are found there again.
 */
export class DraftSession extends UploadSession {
  private readonly drafts: DraftRegistrations;
  private readonly draftKey: string;
  private readonly store: Storage | undefined;
  private readonly storeSealed: DraftApi['storeSealed'] | undefined;
  private encrypted: EncryptedUploads | null = null;

  constructor({ workspaceId, api, ...options }: DraftSessionOptions) {
    const registrations = new DraftRegistrations(api);
    super({ ...options, storageKey: draftStorageKey(workspaceId), registrar: registrations.registrar });
    this.drafts = registrations;
    this.draftKey = draftStorageKey(workspaceId);
    this.store = options.storage ?? (typeof window === 'undefined' ? undefined : window.localStorage);
    this.storeSealed = api?.storeSealed;
  }

  /** The end-to-end encryption of this draft's files, when it has it. */
  get encryption(): EncryptedUploads | null {
    return this.encrypted;
  }

  /**
   * Chooses end-to-end encryption for the draft, with a new link key; only before its first file, since the
   * server fixes it when the draft is made and every file's registered size depends on it.
   */
  setEncrypted(on: boolean) {
    if (this.ownerId !== null || this.fileCount > 0) {
      throw new Error(currentIntl().formatMessage({ id: 'send.draft.encryptionTooLate', defaultMessage: 'Encryption is chosen before the first file is added.' }));
    }
    this.useEncryption(on ? { key: toBase64url(newLinkKey()), sealed: [] } : null);
  }

  override resume(remembered: RememberedUploads) {
    super.resume(remembered);
    this.useEncryption(this.rememberedEncryption());
  }

  /**
   * The sealed `e2eeMeta` for sending: waits for every file's sealed metadata, then seals the manifest (every
   * file's id, salt and plaintext size) and the title and message.
   */
  sealTransfer(note: TransferNote | null): Promise<string> {
    const encryption = this.encrypted;
    if (!encryption || this.ownerId === null) {
      return Promise.reject(new Error(currentIntl().formatMessage({ id: 'send.draft.notEncrypted', defaultMessage: 'This draft is not end-to-end encrypted.' })));
    }
    const files = this.filesNotIn([]).map((file) => ({ fileId: file.fileId, salt: file.sourceState ?? '', size: file.size }));
    return encryption.sealTransfer(this.ownerId, files, note);
  }

  /**
   * The link key is kept in this browser's storage beside the draft, so uploads resume with the same key after
   * the tab was closed; `forget` (after sending, or starting over) drops it with the rest.
   */
  protected override rememberedExtras(): Record<string, unknown> {
    const encryption = this.encrypted;
    if (!encryption) return {};
    const e2ee: RememberedEncryption = { key: toBase64url(encryption.linkKey), sealed: encryption.sealedFileIds };
    return { e2ee };
  }

  private rememberedEncryption(): RememberedEncryption | null {
    try {
      const raw = this.store?.getItem(this.draftKey);
      const e2ee = raw ? (JSON.parse(raw) as { e2ee?: Partial<RememberedEncryption> }).e2ee : undefined;
      if (typeof e2ee?.key !== 'string') return null;
      return { key: e2ee.key, sealed: Array.isArray(e2ee.sealed) ? e2ee.sealed.filter((id): id is string => typeof id === 'string') : [] };
    } catch {
      return null;
    }
  }

  private useEncryption(remembered: RememberedEncryption | null) {
    this.drafts.e2ee = remembered !== null;
    this.encrypted = remembered
      ? new EncryptedUploads({
          linkKey: fromBase64url(remembered.key),
          sealed: remembered.sealed,
          transferId: () => this.ownerId,
          onChange: () => this.persist(),
          ...(this.storeSealed ? { storeSealed: this.storeSealed } : {}),
        })
      : null;
    this.source = this.encrypted;
  }

  // Drafts were remembered as `{ transferId, files }` before collections shared this session.
  protected override rememberedOwnerId(stored: Record<string, unknown>): unknown {
    return stored.ownerId ?? stored.transferId;
  }

  /** The draft, once the first batch of files (or imports) created it. */
  get transferId(): string | null {
    return this.ownerId;
  }

  /** Adds URL imports to the draft, creating it if they come first; a draft made here is remembered like one made by uploads. */
  async addImports(imports: ImportToAdd[]): Promise<ImportEntry[]> {
    const added = await this.drafts.addImports(imports, this.ownerId);
    if (this.ownerId === null) {
      this.ownerId = added.transferId;
      this.rememberDraft(added.transferId);
    }
    return added.imports;
  }

  /** Takes an import back out of the draft (a failed one, before sending): the server forgets it and its bytes. */
  removeImport(fileId: string): Promise<void> {
    if (this.ownerId === null) return Promise.resolve();
    return this.drafts.removeImport(this.ownerId, fileId);
  }

  /** Forgets the draft, and with an encrypted one its link key: after sending, only the link the sender kept opens it. */
  override forget() {
    super.forget();
    this.drafts.draftId = null;
    if (this.encrypted) this.useEncryption(null);
  }

  /** Keeps a draft that holds only imports so far, as uploads would: the next visit finds it (and its imports) again. */
  private rememberDraft(transferId: string) {
    try {
      if (this.store && this.store.getItem(this.draftKey) === null) {
        const remembered: RememberedUploads = { ownerId: transferId, files: {} };
        this.store.setItem(this.draftKey, JSON.stringify(remembered));
      }
    } catch {
      // Storage full or disabled: finding the draft again after a reload is a convenience.
    }
  }
}
