import { ApiRequestError } from '../api-error';
import { readJson, send } from '../http';

/** The header every tus request carries: the file's upload token, whatever the file belongs to (a transfer, a collection). */
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
