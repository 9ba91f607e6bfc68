import type { Transfer, UploadTarget } from '../../../../contract/transfers';
import type { FileToRegister } from '../../../lib/uploads/upload-session';
import { v1Fetch } from '../../../lib/v1-client';
import type { ImportEntry, ImportToAdd } from '../../imports';

export interface CreatedDraft {
  id: string;
  slug: string;
  expiresAt: string;
  maxBytes: number;
  tusEndpoint: string;
  files: UploadTarget[];
  imports: ImportEntry[];
}

export interface AddedFiles {
  tusEndpoint: string;
  files: UploadTarget[];
  imports: ImportEntry[];
}

/** The details known only at send time; the lead's `PATCH /transfers/{id}` takes them while the transfer is a draft. */
export interface TransferDetails {
  title?: string | null;
  message?: string | null;
  recipients?: string[];
  /** The language chosen for a recipient's mail, by address (each one of `recipients`). */
  recipientLanguages?: Record<string, string>;
  password?: string | null;
  expiresAt?: string;
  maxDownloads?: number | null;
}

/** Uploads and URL imports in one body; `imports` only when there are some, as the API defaults it. */
const filesBody = (files: FileToRegister[], imports: ImportToAdd[]) => (imports.length > 0 ? { files, imports } : { files });

/** `e2ee`: an end-to-end encrypted draft, whose files are containers registered under neutral names. */
export function createTransferDraft(files: FileToRegister[], imports: ImportToAdd[] = [], options: { e2ee?: boolean } = {}): Promise<CreatedDraft> {
  return v1Fetch<CreatedDraft>('/transfers', { method: 'POST', json: { ...filesBody(files, imports), ...(options.e2ee ? { e2ee: true } : {}) } });
}

export function addFilesToDraft(transferId: string, files: FileToRegister[], imports: ImportToAdd[] = []): Promise<AddedFiles> {
  return v1Fetch<AddedFiles>(`/transfers/${encodeURIComponent(transferId)}/files`, { method: 'POST', json: filesBody(files, imports) });
}

/** The last update of each draft still running: the next waits for it. */
const updating = new Map<string, Promise<unknown>>();

/**
 * Changes the draft. Updates of one draft reach the server in the order they were made (the details
 * saved as they are typed, then those of Send), so an older one never lands after a newer one.
 */
export function updateTransfer(transferId: string, details: TransferDetails): Promise<Transfer> {
  const before = updating.get(transferId) ?? Promise.resolve();
  const run = before
    .catch(() => undefined)
    .then(() => v1Fetch<Transfer>(`/transfers/${encodeURIComponent(transferId)}`, { method: 'PATCH', json: details }));
  updating.set(transferId, run);
  void run
    .catch(() => undefined)
    .finally(() => {
      if (updating.get(transferId) === run) updating.delete(transferId);
    });
  return run;
}

/** An encrypted file's sealed name, type, size and salt, and its sealed thumbnail ('' for none): opaque to the server. */
export function storeSealedFile(transferId: string, fileId: string, sealed: { meta: string; thumb: string }): Promise<{ stored: boolean }> {
  const path = `/transfers/${encodeURIComponent(transferId)}/files/${encodeURIComponent(fileId)}/sealed`;
  return v1Fetch<{ stored: boolean }>(path, { method: 'POST', json: sealed });
}
