import { UploadSession, type RememberedUploads, type UploadRegistrar, type UploadSessionOptions } from '../../lib/uploads/upload-session';
import type { ImportEntry, ImportToAdd } from '../imports/api/import-status';
import { addFilesToDraft, createTransferDraft, removeFileFromDraft } from './api/transfer-drafts';

export interface DraftApi {
  create: typeof createTransferDraft;
  add: typeof addFilesToDraft;
  remove: typeof removeFileFromDraft;
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
  private queue: Promise<unknown> = Promise.resolve();
  private readonly api: DraftApi;

  constructor(api: Partial<DraftApi> = {}) {
    this.api = { create: createTransferDraft, add: addFilesToDraft, remove: removeFileFromDraft, ...api };
  }

  readonly registrar: UploadRegistrar = {
    register: (files, transferId) =>
      this.serially(async () => {
        const owner = transferId ?? this.draftId;
        if (owner === null) {
          const draft = await this.api.create(toRegister(files));
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

/**
 * The draft transfer behind the "New transfer" uploader: the shared upload session, remembered per
 * workspace, registering into a draft, plus the URL imports added to the same draft. The draft id
 * and tokens survive closing the tab; imports live on the server and are found there again.
 */
export class DraftSession extends UploadSession {
  private readonly drafts: DraftRegistrations;
  private readonly draftKey: string;
  private readonly store: Storage | undefined;

  constructor({ workspaceId, api, ...options }: DraftSessionOptions) {
    const registrations = new DraftRegistrations(api);
    super({ ...options, storageKey: draftStorageKey(workspaceId), registrar: registrations.registrar });
    this.drafts = registrations;
    this.draftKey = draftStorageKey(workspaceId);
    this.store = options.storage ?? (typeof window === 'undefined' ? undefined : window.localStorage);
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

  override forget() {
    super.forget();
    this.drafts.draftId = null;
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
