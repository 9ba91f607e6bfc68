import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../test/fetch-stub';
import { signedIn } from '../../test/fixtures';
import { toDraftFile } from './components/file-uploader';
import { DraftSession } from './draft-session';
import { shouldRetryUpload } from './upload-retry';

const inTwoHours = () => new Date(Date.now() + 2 * 3600_000).toISOString();
const failed = (status: number) => ({ originalResponse: { getStatus: () => status } });

async function sessionWithFile(renewal: ReturnType<typeof json>) {
  stubFetch({
    ...signedIn('free'),
    'POST /api/v1/transfers': json({ id: 'tr_1', slug: 's', expiresAt: inTwoHours(), maxBytes: 1, tusEndpoint: 'http://localhost:8080/files/', files: [{ id: 'fi_1', name: 'a.txt', size: 3, uploadToken: 'tok_old', uploadTokenExpiresAt: inTwoHours() }], imports: [] }, 201),
    'POST /api/uploads/token': renewal,
  });
  const session = new DraftSession({ workspaceId: 'ws_1' });
  await session.registerFiles([{ key: 'a', name: 'a.txt', size: 3 }]);
  return session;
}

describe('shouldRetryUpload', () => {
  it('retries a refused token with a renewed one', async () => {
    const session = await sessionWithFile(json({ uploadToken: 'tok_new', expiresAt: inTwoHours() }));
    expect(shouldRetryUpload(session, 'a', failed(401), () => false)).toBe(true);
    expect(await session.tokenFor('a')).toBe('tok_new');
  });

  it('stops a file whose token can no longer be renewed', async () => {
    const session = await sessionWithFile(apiError(401, 'unauthorized', 'expired'));
    expect(shouldRetryUpload(session, 'a', failed(401), () => false)).toBe(true);
    await expect(session.tokenFor('a')).rejects.toThrow(/expired/);
    expect(shouldRetryUpload(session, 'a', { originalResponse: null }, () => true)).toBe(false);
  });

  it('retries 502, 503 and 504 and leaves the rest to tus', async () => {
    const session = await sessionWithFile(json({}));
    const fallback = vi.fn(() => false);
    for (const status of [502, 503, 504]) expect(shouldRetryUpload(session, 'a', failed(status), fallback)).toBe(true);
    expect(fallback).not.toHaveBeenCalled();
    expect(shouldRetryUpload(session, 'a', failed(413), fallback)).toBe(false);
    expect(fallback).toHaveBeenCalledTimes(1);
  });
});

describe('toDraftFile', () => {
  it('keeps the folder of a dropped folder as path and the base name as name', () => {
    const file = { id: 'uppy-x', name: 'beach.jpg', size: 10, type: 'image/jpeg', meta: { relativePath: 'Holiday/2026/beach.jpg' } } as Parameters<typeof toDraftFile>[0];
    expect(toDraftFile(file)).toEqual({ key: 'uppy-x', name: 'beach.jpg', size: 10, mimeType: 'image/jpeg', path: 'Holiday/2026' });
    const loose = { ...file, type: '', meta: { relativePath: null } } as Parameters<typeof toDraftFile>[0];
    expect(toDraftFile(loose)).toEqual({ key: 'uppy-x', name: 'beach.jpg', size: 10, mimeType: undefined, path: null });
  });
});
