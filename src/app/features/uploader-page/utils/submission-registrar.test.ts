import { describe, expect, it } from 'vitest';
import type { StartedSubmission } from '../../../../contract/public-requests';
import type { UploadTarget } from '../../../../contract/transfers';
import { apiError, json, stubFetch, type StubRequest } from '../../../test/fetch-stub';
import type { FileToUpload } from '../../../lib/uploads/upload-session';
import { openSubmission } from './submission-session';
import { submissionStorageKey } from './submission-store';

const details = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'The <b>notes</b>\nas promised' };
const later = new Date(Date.now() + 3_600_000).toISOString();

function target(id: string): UploadTarget {
  return { id, name: id, size: 100, uploadToken: `upt_${id}`, uploadTokenExpiresAt: later };
}

function file(key: string, size = 100, path: string | null = null): FileToUpload {
  return { key, name: `${key}.pdf`, size, mimeType: 'application/pdf', path };
}

function started(id: string, token: string, fileIds: string[]): StartedSubmission {
  return {
    submission: { id, token, status: 'uploading', fileCount: fileIds.length, sizeBytes: 0, folderName: 'Ada Lovelace 2026-11-22' },
    tusEndpoint: 'http://localhost:8080/files/',
    files: fileIds.map(target),
  };
}

/** The public API of request `abc`: each start makes submission sub_<n> with token st_<n>; file ids count up. */
function requestServer(
  overrides: { add?: (request: StubRequest) => ReturnType<typeof json>; cancel?: (request: StubRequest) => ReturnType<typeof json> } = {},
) {
  let submissions = 0;
  let files = 0;
  const ids = (n: number) => Array.from({ length: n }, () => `fil_${(files += 1)}`);
  return stubFetch({
    'POST /api/public/requests/:slug/submissions': (request) => {
      submissions += 1;
      const body = request.body as { files: unknown[] };
      return json(started(`sub_${submissions}`, `st_${submissions}`, ids(body.files.length)), 201);
    },
    'POST /api/public/requests/:slug/submissions/:id/files': (request) =>
      overrides.add?.(request) ??
      json({ tusEndpoint: 'http://localhost:8080/files/', files: ids((request.body as { files: unknown[] }).files.length).map(target) }, 201),
    'DELETE /api/public/requests/:slug/submissions/:id/files/:fileId': (request) => overrides.cancel?.(request) ?? json({ deleted: true }),
  });
}

describe('the submission registrar', () => {
  it('starts the submission with the details and the first batch, then adds later batches with its token', async () => {
    const network = requestServer();
    const { session, store } = openSubmission('abc', () => details);

    await session.registerFiles([file('a', 100, 'shoot/day 1'), file('b', 200)]);
    const [start] = network.requestsTo('POST /api/public/requests/abc/submissions');
    expect(start!.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'The <b>notes</b>\nas promised',
      files: [
        { name: 'a.pdf', size: 100, mimeType: 'application/pdf', path: 'shoot/day 1' },
        { name: 'b.pdf', size: 200, mimeType: 'application/pdf', path: null },
      ],
    });
    expect(session.ownerId).toBe('sub_1');
    expect(store.current).toMatchObject({
      id: 'sub_1',
      token: 'st_1',
      details,
      files: { fil_1: { size: 100, delivered: false }, fil_2: { size: 200, delivered: false } },
    });

    await session.registerFiles([file('c', 300)]);
    const [add] = network.requestsTo('POST /api/public/requests/abc/submissions/sub_1/files');
    expect(add!.headers.get('x-submission-token')).toBe('st_1');
    expect(add!.body).toEqual({ files: [{ name: 'c.pdf', size: 300, mimeType: 'application/pdf', path: null }] });
    expect(session.fileIdOf('c')).toBe('fil_3');
    expect(network.requestsTo('POST /api/public/requests/abc/submissions')).toHaveLength(1);
    // No credential of any workspace, and no cookie, goes with these calls.
    for (const request of network.requests) expect(request.headers.get('authorization')).toBeNull();
  });

  it('cancels a removed file with the token, and takes a 404 as already gone', async () => {
    const network = requestServer({
      cancel: (request) => (request.params.fileId === 'fil_2' ? apiError(404, 'not_found', 'File not found') : json({ deleted: true })),
    });
    const { session, store } = openSubmission('abc', () => details);
    await session.registerFiles([file('a'), file('b'), file('c')]);

    await session.removeFile('a');
    const [cancel] = network.requestsTo('DELETE /api/public/requests/abc/submissions/sub_1/files/fil_1');
    expect(cancel!.headers.get('x-submission-token')).toBe('st_1');
    await expect(session.removeFile('b')).resolves.toBeUndefined();
    expect(session.has('a')).toBe(false);
    expect(session.has('b')).toBe(false);
    expect(Object.keys(store.current!.files)).toEqual(['fil_3']);
  });

  it('keeps a file that finished before its cancel arrived: it was delivered', async () => {
    requestServer({ cancel: () => apiError(409, 'conflict', 'This file has arrived already.', { reason: 'complete' }) });
    const { session, store } = openSubmission('abc', () => details);
    await session.registerFiles([file('a', 100)]);
    await session.removeFile('a');
    expect(store.current!.files.fil_1).toEqual({ size: 100, delivered: true });
  });

  it('starts a new submission after the last file of the first was cancelled (the server dropped it)', async () => {
    const network = requestServer();
    const { session, store } = openSubmission('abc', () => details);
    await session.registerFiles([file('a')]);
    await session.removeFile('a');
    expect(store.current).toBeNull();

    await session.registerFiles([file('b')]);
    expect(network.requestsTo('POST /api/public/requests/abc/submissions')).toHaveLength(2);
    expect(network.requestsTo('POST /api/public/requests/abc/submissions/sub_1/files')).toHaveLength(0);
    expect(session.ownerId).toBe('sub_2');
    expect(store.current).toMatchObject({ id: 'sub_2', token: 'st_2' });
  });

  it('starts a new submission when adding to the remembered one answers 404', async () => {
    const network = requestServer({ add: () => apiError(404, 'not_found', 'Submission not found') });
    const first = openSubmission('abc', () => details);
    await first.session.registerFiles([file('a')]);

    // The tab is closed and the link opened again: the same submission, from storage.
    const { session, store } = openSubmission('abc', () => details);
    expect(session.ownerId).toBe('sub_1');
    expect(store.current?.token).toBe('st_1');
    await session.registerFiles([file('b')]);
    expect(network.requestsTo('POST /api/public/requests/abc/submissions/sub_1/files')).toHaveLength(1);
    expect(network.requestsTo('POST /api/public/requests/abc/submissions')).toHaveLength(2);
    expect(session.ownerId).toBe('sub_2');
    expect(JSON.parse(window.localStorage.getItem(submissionStorageKey('abc'))!)).toMatchObject({ id: 'sub_2', token: 'st_2' });
  });

  it('passes a refusal on: the batch is not registered and nothing is remembered', async () => {
    stubFetch({
      'POST /api/public/requests/:slug/submissions': apiError(
        400,
        'invalid_request',
        'Invalid body: files: this request takes at most 2 files per submission',
        {
          fields: [{ path: 'files', message: 'this request takes at most 2 files per submission' }],
        },
      ),
    });
    const { session, store } = openSubmission('abc', () => details);
    await expect(session.registerFiles([file('a'), file('b'), file('c')])).rejects.toMatchObject({ status: 400 });
    expect(session.ownerId).toBeNull();
    expect(store.current).toBeNull();
    expect(session.failureOf('a')).toMatch(/at most 2 files/);
  });
});
