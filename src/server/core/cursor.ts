import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './secrets.js';
import { ApiError } from './errors.js';
import { said } from './sentences.js';

/**
 * Opaque keyset cursors: the position of the last item returned, bound to the list and the
 * workspace it came from and signed with the server's key. A cursor this service did not issue,
 * or one from another list or workspace, fails the signature or binding check.
 */
export type CursorPosition = (string | number)[];

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url').slice(0, 32);
}

export function encodeCursor(key: Buffer, list: string, workspaceId: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([list, workspaceId, position])).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

export function decodeCursor(key: Buffer, list: string, workspaceId: string, cursor: string | undefined): CursorPosition | null {
  if (cursor === undefined) return null;
  const invalid = () =>
    new ApiError('invalid_request', said({ id: 'api.request.cursorOneListIssued', defaultMessage: 'cursor is not one this list issued' }), { fields: [{ path: 'cursor', message: 'unknown cursor' }], location: 'query' });
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || !constantTimeEqual(signature, sign(key, payload))) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed[0] !== list || parsed[1] !== workspaceId || !Array.isArray(parsed[2])) throw invalid();
  return parsed[2] as CursorPosition;
}
