import type { Transfer, UploadTarget } from '../../../../contract/transfers';
import type { FileToRegister } from '../../../lib/uploads/upload-session';
import { v1Fetch } from '../../../lib/v1-client';

export interface CreatedDraft {
  id: string;
  slug: string;
  expiresAt: string;
  maxBytes: number;
  tusEndpoint: string;
  files: UploadTarget[];
}

export interface AddedFiles {
  tusEndpoint: string;
  files: UploadTarget[];
}

/** The details known only at send time; the lead's `PATCH /transfers/{id}` takes them while the transfer is a draft. */
export interface TransferDetails {
  title?: string | null;
  message?: string | null;
  recipients?: string[];
  password?: string | null;
  expiresAt?: string;
  maxDownloads?: number | null;
}

export function createTransferDraft(files: FileToRegister[]): Promise<CreatedDraft> {
  return v1Fetch<CreatedDraft>('/transfers', { method: 'POST', json: { files } });
}

export function addFilesToDraft(transferId: string, files: FileToRegister[]): Promise<AddedFiles> {
  return v1Fetch<AddedFiles>(`/transfers/${encodeURIComponent(transferId)}/files`, { method: 'POST', json: { files } });
}

export function removeFileFromDraft(transferId: string, fileId: string): Promise<void> {
  return v1Fetch<void>(`/transfers/${encodeURIComponent(transferId)}/files/${encodeURIComponent(fileId)}`, { method: 'DELETE' });
}

export function updateTransfer(transferId: string, details: TransferDetails): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(transferId)}`, { method: 'PATCH', json: details });
}

export function finalizeTransfer(transferId: string): Promise<Transfer> {
  return v1Fetch<Transfer>(`/transfers/${encodeURIComponent(transferId)}/finalize`, { method: 'POST', json: {} });
}
