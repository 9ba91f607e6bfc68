import {
  AddedSubmissionFilesSchema,
  PublicUploadRequestSchema,
  StartedSubmissionSchema,
  SUBMISSION_TOKEN_HEADER,
  SubmissionProgressSchema,
  type StartedSubmission,
} from '../../contract/public-requests.js';
import { SubmissionListSchema, UploadRequestListSchema, UploadRequestResponseSchema, type UploadRequest } from '../../contract/requests.js';
import type { FileToSend } from './collections.js';
import type { TestServer } from './harness.js';
import { tusUpload } from './uploads.js';

/**
 * Helpers for the upload request tests: the owner's API (/api/v1/requests) and the uploader's
 * (/api/public/requests), as the dashboard and the page at /r/<slug> call them, each call checked
 * against its status and response schema.
 */

async function expectStatus(res: Response, status: number): Promise<unknown> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The first field a 400 names. */
export const fieldOf = (error: { details: Record<string, unknown> }) => (error.details.fields as { path: string }[])[0]!.path;

/** The owner's side: /api/v1/requests with a key. */
export function requestsApi(server: TestServer, token: string) {
  const call = (method: string, path: string, json?: unknown) => server.fetch(`/api/v1${path}`, { method, token, json });
  return {
    call,
    async create(body: Record<string, unknown>): Promise<UploadRequest> {
      return UploadRequestResponseSchema.parse(await expectStatus(await call('POST', '/requests', body), 201)).request;
    },
    async get(id: string): Promise<UploadRequest> {
      return UploadRequestResponseSchema.parse(await expectStatus(await call('GET', `/requests/${id}`), 200)).request;
    },
    async list(): Promise<UploadRequest[]> {
      return UploadRequestListSchema.parse(await expectStatus(await call('GET', '/requests'), 200)).requests;
    },
    async update(id: string, body: Record<string, unknown>): Promise<UploadRequest> {
      return UploadRequestResponseSchema.parse(await expectStatus(await call('PATCH', `/requests/${id}`, body), 200)).request;
    },
    async submissions(id: string) {
      return SubmissionListSchema.parse(await expectStatus(await call('GET', `/requests/${id}/submissions`), 200)).submissions;
    },
  };
}

/** The slug of a request's public link, `/r/<slug>`. */
export const slugOf = (r: Pick<UploadRequest, 'url'>) => new URL(r.url).pathname.replace(/^\/r\//, '');

export interface Uploader {
  name: string;
  email?: string | null;
  message?: string | null;
}

/** Files as the page declares them before any byte: name, exact size, and path and type when given. */
export const fileList = (toSend: FileToSend[]) =>
  toSend.map((f) => ({ name: f.name, size: f.bytes.length, ...(f.path ? { path: f.path } : {}), ...(f.mimeType ? { mimeType: f.mimeType } : {}) }));

/** The uploader's side: /api/public/requests/<slug>, as the page calls it. */
export function uploaderApi(server: TestServer, slug: string) {
  const visit = (path = '', init: { method?: string; json?: unknown; token?: string | null; headers?: Record<string, string> } = {}) =>
    server.fetch(`/api/public/requests/${slug}${path}`, {
      method: init.method ?? 'GET',
      json: init.json,
      headers: { ...(init.token ? { [SUBMISSION_TOKEN_HEADER]: init.token } : {}), ...init.headers },
    });
  type Started = StartedSubmission['submission'];
  return {
    visit,
    async describe() {
      return PublicUploadRequestSchema.parse(await expectStatus(await visit(), 200));
    },
    /** Starts a submission with its first files (registered, not uploaded). */
    async start(uploader: Uploader, toSend: FileToSend[]): Promise<StartedSubmission> {
      return StartedSubmissionSchema.parse(
        await expectStatus(await visit('/submissions', { method: 'POST', json: { ...uploader, files: fileList(toSend) } }), 201),
      );
    },
    async add(s: Started, toSend: FileToSend[]) {
      const res = await visit(`/submissions/${s.id}/files`, { method: 'POST', json: { files: fileList(toSend) }, token: s.token });
      return AddedSubmissionFilesSchema.parse(await expectStatus(res, 201));
    },
    async cancel(s: Started, fileId: string) {
      return expectStatus(await visit(`/submissions/${s.id}/files/${fileId}`, { method: 'DELETE', token: s.token }), 200);
    },
    async finish(s: Started) {
      const res = await visit(`/submissions/${s.id}/finish`, { method: 'POST', token: s.token });
      return SubmissionProgressSchema.parse(((await expectStatus(res, 200)) as { submission: unknown }).submission);
    },
  };
}

/** Uploads every byte of each registered file through the one tus endpoint. */
export async function uploadAll(server: TestServer, targets: { uploadToken: string }[], toSend: FileToSend[]) {
  for (const [i, target] of targets.entries()) await tusUpload(toSend[i]!.bytes, { endpoint: `${server.url}/files/`, token: target.uploadToken });
}

/** A whole visit to the page: start, upload every file, and "Send". */
export async function submit(server: TestServer, slug: string, uploader: Uploader, toSend: FileToSend[]) {
  const page = uploaderApi(server, slug);
  const started = await page.start(uploader, toSend);
  await uploadAll(server, started.files, toSend);
  const progress = await page.finish(started.submission);
  return { started, progress, fileIds: started.files.map((f) => f.id) };
}
