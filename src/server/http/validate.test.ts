import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '../../contract/scopes.js';
import { seedTransfer } from '../test/transfers.js';
import { expectError, startTestServer, type TestServer } from '../test/harness.js';

/**
 * Input PostgreSQL cannot hold (a NUL byte) and non-decimal numbers are refused where they come
 * in, on every surface: 400 naming the field, 404 for an id that cannot exist, and never a 500 or
 * an error-log line that anyone could flood.
 */

let server: TestServer;
const logLines: string[] = [];
let key: string;
let draftId: string;
let fileId: string;

beforeAll(async () => {
  server = await startTestServer({}, { logLines });
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(scopes);
  const res = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { title: 'Draft', files: [{ name: 'a.txt', size: 1 }] } });
  expect(res.status).toBe(201);
  const draft = (await res.json()) as { id: string; files: { id: string }[] };
  draftId = draft.id;
  fileId = draft.files[0]!.id;
});
afterAll(() => server.stop());

function expectFieldNamed(error: { details: Record<string, unknown> }, path: string) {
  expect(error.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
}

const errorLogLines = () => logLines.filter((l) => (JSON.parse(l) as { level: number }).level >= 50);

describe('a NUL byte', () => {
  it.each([
    ['GET', () => '/api/v1/transfers/%00'],
    ['GET', () => '/api/v1/transfers/tr_abc%00'],
    ['DELETE', () => `/api/v1/transfers/${draftId}/files/%00`],
    ['DELETE', () => `/api/v1/transfers/%00/files/${fileId}`],
    ['GET', () => '/api/v1/webhooks/wh_x%00y'],
    ['POST', () => '/api/v1/webhooks/%00/deliveries/whd_abc/retry'],
    ['GET', () => '/api/v1/contacts/%00'],
  ])('in a path id (%s %s) is 404 not_found: no such id can exist', async (method, path) => {
    await expectError(await server.fetch(path(), { method, token: key }), 404, 'not_found');
  });

  it('in a title on creation is 400 naming title', async () => {
    const res = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { title: 'a\u0000b', files: [{ name: 'a.txt', size: 1 }] } });
    expectFieldNamed(await expectError(res, 400, 'invalid_request'), 'title');
  });

  it.each([
    ['files.0.name', { name: 'a\u0000b.txt', size: 1 }],
    ['files.0.path', { name: 'a.txt', size: 1, path: 'docs/\u0000' }],
  ])('in a file %s is refused naming it, not cleaned away like other controls', async (field, file) => {
    const res = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { files: [file] } });
    expectFieldNamed(await expectError(res, 400, 'invalid_request'), field);
    const added = await server.fetch(`/api/v1/transfers/${draftId}/files`, { method: 'POST', token: key, json: { files: [file] } });
    expectFieldNamed(await expectError(added, 400, 'invalid_request'), field);
  });

  it.each(['title', 'message', 'password'])('in %s on PATCH is 400 naming it', async (field) => {
    const res = await server.fetch(`/api/v1/transfers/${draftId}`, { method: 'PATCH', token: key, json: { [field]: 'long enough \u0000 text' } });
    expectFieldNamed(await expectError(res, 400, 'invalid_request'), field);
  });

  it('in a recipient address is 400 naming it', async () => {
    const res = await server.fetch(`/api/v1/transfers/${draftId}`, { method: 'PATCH', token: key, json: { recipients: ['a@example.test', 'b\u0000@example.test'] } });
    expect((await expectError(res, 400, 'invalid_request')).details.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^recipients\.1/) })]),
    );
  });

  it.each(['/api/v1/transfers?q=%00', '/api/v1/transfers?q=a%00b', '/api/v1/contacts?q=%00'])('in the query %s is 400 naming q', async (path) => {
    expectFieldNamed(await expectError(await server.fetch(path, { token: key }), 400, 'invalid_request'), 'q');
  });

  it('in a dashboard key name is 400 naming name', async () => {
    const ws = await server.createWorkspace();
    const signin = await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: ws.email, password: ws.password } });
    const cookie = signin.headers.getSetCookie()[0]!.split(';')[0]!;
    const res = await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'ci\u0000', scopes: ['contacts:read'] } });
    expectFieldNamed(await expectError(res, 400, 'invalid_request'), 'name');
  });

  it('in a dashboard key id to revoke is 404', async () => {
    const ws = await server.createWorkspace();
    const signin = await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: ws.email, password: ws.password } });
    const cookie = signin.headers.getSetCookie()[0]!.split(';')[0]!;
    await expectError(await server.fetch('/api/dashboard/keys/key_a%00b', { method: 'DELETE', headers: { cookie } }), 404, 'not_found');
  });

  it('in a recipient page password is 400 naming password', async () => {
    const { transfer } = await seedTransfer(server, { files: [{ name: 'a.txt', data: Buffer.from('a') }], password: 'right password' });
    const res = await server.fetch(`/api/public/transfers/${transfer.slug}/unlock`, { method: 'POST', json: { password: 'a\u0000b' } });
    expectFieldNamed(await expectError(res, 400, 'invalid_request'), 'password');
  });

  it('in the sign-up workspace name is 400 naming workspaceName', async () => {
    const res = await server.fetch('/api/dashboard/signup', {
      method: 'POST',
      json: { email: 'nul@example.test', password: 'a long enough password', workspaceName: 'Acme\u0000' },
    });
    expectFieldNamed(await expectError(res, 400, 'invalid_request'), 'workspaceName');
  });

  it('in a webhook description is 400 too, and none of the above wrote an error log line', async () => {
    const res = await server.fetch('/api/v1/webhooks', { method: 'POST', token: key, json: { url: null, events: ['transfer.ready'], description: 'x\u0000' } });
    await expectError(res, 400, 'invalid_request');
    expect(errorLogLines()).toEqual([]);
  });
});

describe('a body of another type', () => {
  it('is 415 unsupported_media_type, the code that goes with the status', async () => {
    const res = await server.fetch('/api/v1/contacts', { method: 'POST', token: key, headers: { 'content-type': 'text/plain' }, body: 'email=a@example.test' });
    await expectError(res, 415, 'unsupported_media_type');
  });
});

describe('limit', () => {
  it.each(['0x10', '1e2', '%2010', '10%20', '%2B10', '1.0', '0', '501', '-1', '', 'ten', '010', '00', '0016'])('?limit=%s is 400 invalid_request naming limit', async (limit) => {
    const error = await expectError(await server.fetch(`/api/v1/transfers?limit=${limit}`, { token: key }), 400, 'invalid_request');
    expectFieldNamed(error, 'limit');
  });

  it('takes plain decimal digits', async () => {
    const res = await server.fetch('/api/v1/transfers?limit=16', { token: key });
    expect(res.status).toBe(200);
  });
});
