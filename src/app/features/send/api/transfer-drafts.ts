import type { Transfer, UploadTarget } from '../../../../contract/transfers';
import { ApiRequestError } from '../../../lib/api-error';
import { readJson, send } from '../../../lib/http';
import { v1Fetch } from '../../../lib/v1-client';

/** One file as the draft registers it; `path` is the folder part of a dropped folder's relative path. */
export interface FileToRegister {
  name: string;
  size: number;
  mimeType?: string;
  path?: string | null;
}

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

export const UPLOAD_TOKEN_HEADER = 'x-service-upload-token';

export interface RenewedUploadToken {
  uploadToken: string;
  expiresAt: string;
}

/** Trades a still-valid upload token for a fresh one; an expired token answers 401. */
export async function renewUploadToken(currentToken: string): Promise<RenewedUploadToken> {
  const response = await send('/api/uploads/token', { method: 'POST', headers: { [UPLOAD_TOKEN_HEADER]: currentToken } });
  return readJson<RenewedUploadToken>(response);
}

export function isExpiredTokenError(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 401 || error.status === 403);
}
