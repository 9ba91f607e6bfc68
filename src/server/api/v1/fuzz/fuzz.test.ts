import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema, errorStatus, type ErrorCode } from '../../../../contract/errors.js';
import { scopes } from '../../../../contract/scopes.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { v1App } from '../index.js';
import { openApiDocumentConfig } from '../openapi.js';
import { casesFor, operationsOf, type FuzzCase } from './cases.js';

/**
 * Every v1 operation, from the OpenAPI document the service serves, gets requests with one thing
 * broken at a time (see cases.ts). Whatever comes in: never a 5xx; every 4xx in the Error shape,
 * as JSON, with the code that goes with its status; a NUL in a field is 400 naming that field, and
 * a NUL in a path id is 404. No request leaves this machine: name resolution and outbound
 * connections are refused.
 */

const PUBLIC_URL = 'http://127.0.0.1';
const doc = v1App().getOpenAPI31Document(openApiDocumentConfig(PUBLIC_URL));
const operations = operationsOf(doc);

let server: TestServer;
let key: string;
const ids = { transfer: '', file: '', webhook: '', delivery: '', contact: '', collection: '', folder: '', guest: '', request: '' };
let contacts = 0;

async function call(method: string, path: string, json?: unknown) {
  const res = await server.fetch(`/api/v1${path}`, { method, token: key, json });
  const body = (await res.json().catch(() => null)) as Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!res.ok) throw new Error(`fuzz setup: ${method} ${path} answered ${res.status} ${JSON.stringify(body)}`);
  return body!;
}

/** Real resources for the path ids of the valid variants; made anew after a case may have used them up. */
async function freshResources() {
  const { webhooks } = await call('GET', '/webhooks');
  for (const w of webhooks as { id: string }[]) await call('DELETE', `/webhooks/${w.id}`);
  const draft = await call('POST', '/transfers', { title: 'Fuzz', files: [{ name: 'a.txt', size: 3 }] });
  ids.transfer = draft.id;
  ids.file = draft.files[0].id;
  ids.webhook = (await call('POST', '/webhooks', { url: null, events: ['transfer.ready'], description: 'fuzz' })).webhook.id;
  ids.delivery = (await call('POST', `/webhooks/${ids.webhook}/test`)).deliveryId;
  ids.contact = (await call('POST', '/contacts', { email: `fuzz${++contacts}@example.test` })).contact.id;
  ids.collection = (await call('POST', '/collections', { title: 'Fuzz' })).collection.id;
  ids.folder = (await call('POST', `/collections/${ids.collection}/folders`, { name: 'Fuzz' })).folder.id;
  await call('POST', `/collections/${ids.collection}/guests`, { emails: ['fuzz-guest@example.test'] });
  ids.guest = (await call('GET', `/collections/${ids.collection}/guests`)).guests[0].id;
  ids.request = (await call('POST', '/requests', { title: 'Fuzz', collectionId: ids.collection, folderId: ids.folder })).request.id;
}

function realId(path: string, param: string): string {
  if (param === 'fileId') return ids.file;
  if (param === 'deliveryId') return ids.delivery;
  if (param === 'folderId') return ids.folder;
  if (param === 'guestId') return ids.guest;
  const resource = path.split('/')[1];
  const byResource: Record<string, string | undefined> = {
    transfers: ids.transfer,
    webhooks: ids.webhook,
    contacts: ids.contact,
    collections: ids.collection,
    requests: ids.request,
  };
  return byResource[resource ?? ''] ?? 'unknown';
}

/**
 * Bodies that are valid for reasons beyond their schema, so that the cases start from a request
 * that succeeds and each broken field is what gets refused.
 */
const validBodies: Record<string, unknown> = {
  createTransfer: { title: 'Fuzz', files: [{ name: 'a.txt', size: 3, mimeType: 'text/plain', path: 'docs' }], recipients: ['someone@example.test'], password: 'secret words' },
  updateTransfer: { title: 'Renamed', message: 'Hello', maxDownloads: 5 },
  addTransferFiles: { files: [{ name: 'b.txt', size: 3 }] },
  createWebhook: { url: null, events: ['transfer.ready'], description: 'fuzz' },
  updateWebhook: { description: 'changed', events: ['transfer.ready', 'transfer.expired'] },
  createCollection: { title: 'Fuzz', description: 'Fuzzed', visibility: 'password', password: 'secret words' },
  updateCollection: { title: 'Renamed', description: 'Changed', visibility: 'password', password: 'other words' },
  createCollectionFolder: { name: 'Fuzz inner', parentId: null },
  updateCollectionFolder: { name: 'Fuzz renamed', parentId: null },
  addCollectionFiles: { files: [{ name: 'b.txt', size: 3, path: 'docs/2026' }], folderId: null },
  updateCollectionFile: { name: 'renamed.txt', folderId: null },
  deleteCollectionFiles: { fileIds: ['fi_1'] },
  replaceContact: { email: 'replaced@example.test', firstName: 'Ada', lastName: 'Lovelace', company: 'Engines', phone: '+44 1', type: 'person' },
  // A link of this service (PUBLIC_URL) naming no transfer: 404, so each broken field is what gets refused.
  resolveLink: { url: `${PUBLIC_URL}/t/NoSuchSlug0000000000000`, password: 'secret words' },
  // An upload request goes into a real collection and folder (read when the operation's cases are made).
  get createUploadRequest() {
    return {
      title: 'Fuzz',
      message: 'Send us your files',
      collectionId: ids.collection,
      folderId: ids.folder,
      status: 'open',
      deadline: '2026-12-31T23:59:59Z',
      maxFiles: 10,
      maxBytes: 1_000_000,
      allowedTypes: ['image/*', 'application/pdf'],
      requireEmail: true,
    };
  },
  get updateUploadRequest() {
    return {
      title: 'Renamed',
      message: 'Changed',
      collectionId: ids.collection,
      folderId: ids.folder,
      status: 'paused',
      deadline: '2026-12-31T23:59:59Z',
      maxFiles: 5,
      maxBytes: 500_000,
      allowedTypes: ['text/plain'],
      requireEmail: false,
    };
  },
};

const usesUp = (c: FuzzCase) => c.method === 'DELETE' || /\/(revoke|finalize)$/.test(c.path) || c.operationId === 'createWebhook';

beforeAll(async () => {
  const refuse = async () => {
    throw Object.assign(new Error('fuzz: no outbound network'), { code: 'ENOTFOUND' });
  };
  server = await startTestServer(
    { RATE_LIMIT_KEY_PER_MINUTE: '100000000', RATE_LIMIT_WORKSPACE_PER_DAY: '100000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000000' },
    { outbound: { lookup: refuse, connect: refuse } },
  );
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(scopes);
  await freshResources();
}, 60_000);
afterAll(() => server?.stop());

interface Failure {
  case: string;
  status: number;
  problem: string;
  body: string;
}

function fieldNamed(details: Record<string, unknown>, path: string): boolean {
  const fields = Array.isArray(details.fields) ? (details.fields as { path?: unknown }[]) : [];
  return fields.some((f) => typeof f.path === 'string' && (f.path === path || f.path.startsWith(`${path}.`) || path.startsWith(`${f.path}.`)));
}

async function check(c: FuzzCase, baselineStatus: number | undefined): Promise<{ status: number; failure?: Failure }> {
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => c.pathOverrides[name] ?? realId(c.path, name));
  const caseName = `${c.operationId} ${c.location}: ${c.mutation}`;
  let res: Response;
  let text: string;
  try {
    res = await server.fetch(`/api/v1${path}${c.query ? `?${c.query}` : ''}`, { method: c.method, token: key, headers: c.headers, body: c.body });
    text = await res.text();
  } catch (err) {
    // Every request gets an answer; a dropped connection is a failure too.
    return { status: 0, failure: { case: caseName, status: 0, problem: `no answer: ${String((err as Error).cause ?? err)}`, body: '' } };
  }
  const fail = (problem: string) => ({
    status: res.status,
    failure: { case: caseName, status: res.status, problem, body: text.slice(0, 200) },
  });
  if (res.status >= 500) return fail('server error');
  if (res.status >= 400) {
    if (!/^application\/json/.test(res.headers.get('content-type') ?? '')) return fail(`content-type ${res.headers.get('content-type')}`);
    let parsed;
    try {
      parsed = ErrorSchema.safeParse(JSON.parse(text));
    } catch {
      return fail('body is not JSON');
    }
    if (!parsed.success) return fail('body is not the Error shape');
    const { code, details, docs } = parsed.data.error;
    if (errorStatus[code as ErrorCode] !== res.status) return fail(`code ${code} does not go with status ${res.status}`);
    if (!docs.startsWith(`${PUBLIC_URL}/docs/errors#`)) return fail(`docs ${docs}`);
    if (c.expectNotFound && (res.status !== 404 || code !== 'not_found')) return fail('a NUL in a path id must be 404 not_found');
    // A NUL is refused naming its field, unless the valid request was itself a 400 for another reason.
    if (c.nulField && baselineStatus !== 400 && res.status === 400 && !fieldNamed(details, c.nulField.path)) {
      return fail(`400 does not name ${c.nulField.path}`);
    }
    if (c.nulField && baselineStatus !== 400 && res.status !== 400 && res.status < 500 && res.status !== 413) {
      // The NUL must not have been let through to a later refusal (404, 409…) either.
      if (res.status === (baselineStatus ?? 0)) return fail(`a NUL in ${c.nulField.path} was not refused (${res.status}, as the valid request)`);
    }
  } else if (c.expectNotFound) {
    return fail('a NUL in a path id was accepted');
  }
  if (res.status < 300 && usesUp(c)) await freshResources();
  return { status: res.status };
}

describe('fuzzing every v1 operation', () => {
  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(28);
    for (const op of operations)
      expect(casesFor(doc, op, validBodies[op.operationId]).length).toBeGreaterThan(op.pathParams.length + op.queryParams.length + (op.bodySchema ? 1 : 0));
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: no 5xx, and every 4xx in the Error shape',
    async (_, op) => {
      const cases = casesFor(doc, op, validBodies[op.operationId]);
      const failures: Failure[] = [];
      let baselineStatus: number | undefined;
      for (const c of cases) {
        const { status, failure } = await check(c, baselineStatus);
        if (c.mutation === 'valid') {
          baselineStatus = status;
          // The valid request must not be refused for its own sake (409 and the like are states).
          expect(status === 400 || status === 413 || status === 415, `${op.operationId}: the valid request was refused (${status})`).toBe(false);
        }
        if (failure) failures.push(failure);
      }
      expect(failures, `${failures.length} of ${cases.length} cases failed`).toEqual([]);
    },
    120_000,
  );
});
