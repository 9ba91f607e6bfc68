import { UploadSession, type UploadRegistrar, type UploadSessionOptions } from '../../lib/uploads/upload-session';
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

/** A transfer's files go into a draft that the first batch creates; later batches are added to it, removed files leave it. */
export function draftRegistrar(api: Partial<DraftApi> = {}): UploadRegistrar {
  const { create, add, remove } = { create: createTransferDraft, add: addFilesToDraft, remove: removeFileFromDraft, ...api };
  const toRegister = (files: Parameters<UploadRegistrar['register']>[0]) =>
    files.map(({ name, size, mimeType, path }) => ({ name, size, ...(mimeType ? { mimeType } : {}), path: path ?? null }));
  return {
    async register(files, transferId) {
      if (transferId === null) {
        const draft = await create(toRegister(files));
        return { ownerId: draft.id, targets: draft.files };
      }
      return { ownerId: transferId, targets: (await add(transferId, toRegister(files))).files };
    },
    unregister: (transferId, fileId) => remove(transferId, fileId),
  };
}

/**
 * The draft transfer behind the "New transfer" uploader: the shared upload session, remembered per
 * workspace, registering into a draft. The draft id and tokens survive closing the tab.
 */
export class DraftSession extends UploadSession {
  constructor({ workspaceId, api, ...options }: DraftSessionOptions) {
    super({ ...options, storageKey: draftStorageKey(workspaceId), registrar: draftRegistrar(api) });
  }

  // Drafts were remembered as `{ transferId, files }` before collections shared this session.
  protected override rememberedOwnerId(stored: Record<string, unknown>): unknown {
    return stored.ownerId ?? stored.transferId;
  }

  /** The draft, once the first batch of files created it. */
  get transferId(): string | null {
    return this.ownerId;
  }
}
