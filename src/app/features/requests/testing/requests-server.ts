import type { CollectionSummary, Folder } from '../../../../contract/collections';
import type { Submission, UploadRequest } from '../../../../contract/requests';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { collectionSummaryFixture } from '../../collections/testing/sharing-fixtures';
import { folderFixture, submissionFixture, uploadRequestFixture } from './request-fixtures';

interface RequestsServerOptions {
  plan?: 'free' | 'paid';
  requests?: UploadRequest[];
  collections?: CollectionSummary[];
  folders?: Record<string, Folder[]>;
  submissions?: Submission[];
  extra?: Record<string, StubHandler>;
}

/** A server with upload requests that creating and changing change, and the collections they go into. */
export function requestsServer({
  plan = 'paid',
  requests = [uploadRequestFixture()],
  collections = [collectionSummaryFixture(), collectionSummaryFixture({ id: 'col_2', title: 'Client uploads' })],
  folders = {
    col_1: [],
    col_2: [
      folderFixture({ id: 'fo_in', name: 'Inbox', path: 'Inbox' }),
      folderFixture({ id: 'fo_2026', name: '2026', path: 'Inbox/2026', parentId: 'fo_in', depth: 1 }),
    ],
  },
  submissions = [submissionFixture()],
  extra = {},
}: RequestsServerOptions = {}) {
  let stored = [...requests];
  return stubFetch({
    ...signedIn(plan),
    'GET /api/v1/collections': () => json({ collections }),
    'GET /api/v1/collections/:id/folders': ({ params }) => json({ folders: folders[params.id!] ?? [] }),
    'GET /api/v1/requests': () => json({ requests: stored }),
    'GET /api/v1/requests/:id': ({ params }) => {
      const request = stored.find((r) => r.id === params.id);
      return request ? json({ request }) : apiError(404, 'not_found', 'Upload request not found.');
    },
    'GET /api/v1/requests/:id/submissions': () => json({ submissions }),
    'POST /api/v1/requests': ({ body }) => {
      const input = body as Partial<UploadRequest>;
      const request = uploadRequestFixture({ ...input, id: 'req_new', submissionCount: 0, fileCount: 0, sizeBytes: 0, lastSubmissionAt: null });
      stored = [request, ...stored];
      return json({ request }, 201);
    },
    'PATCH /api/v1/requests/:id': ({ params, body }) => {
      const change = body as Partial<UploadRequest>;
      stored = stored.map((r) =>
        r.id === params.id ? { ...r, ...change, acceptingFiles: (change.status ?? r.status) === 'open', updatedAt: new Date().toISOString() } : r,
      );
      return json({ request: stored.find((r) => r.id === params.id) });
    },
    ...extra,
  });
}
