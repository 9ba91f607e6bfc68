import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../test/fetch-stub';
import { UploadSession } from './upload-session';
import { shouldRetryUpload } from './upload-retry';

const inTwoHours = () => new Date(Date.now() + 2 * 3600_000).toISOString();
const failed = (status: number) => ({ originalResponse: { getStatus: () => status } });

async function sessionWithFile(renewal: ReturnType<typeof json>) {
  stubFetch({ 'POST /api/uploads/token': renewal });
  const session = new UploadSession({
    storageKey: 'uploads.test',
    registrar: {
      register: async (files) => ({
        ownerId: 'col_1',
        targets: files.map((f) => ({ id: 'fi_1', name: f.name, size: f.size, uploadToken: 'tok_old', uploadTokenExpiresAt: inTwoHours() })),
      }),
      unregister: async () => undefined,
    },
  });
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
