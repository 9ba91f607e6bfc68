import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import type { OutgoingMessage } from '../mail/mailer.js';
import { startTestServer, type TestServer } from '../test/harness.js';

interface MailList {
  transport: 'smtp' | 'files';
  messages: { id: string; to: string; subject: string; tag: string; createdAt: string }[];
}

let server: TestServer;
let cookie: string;
let ownId: string;
let otherId: string;

async function signUp(s: TestServer): Promise<{ cookie: string; workspaceId: string }> {
  const res = await s.fetch('/api/dashboard/signup', {
    method: 'POST',
    json: { email: `mail-${randomUUID().slice(0, 8)}@example.test`, password: 'a long enough password', workspaceName: 'Mail' },
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { workspace: { id: string } };
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('parcel_session='));
  expect(setCookie).toBeDefined();
  return { cookie: setCookie!.split(';')[0]!, workspaceId: body.workspace.id };
}

const message = (workspaceId: string, subject: string): OutgoingMessage => ({
  to: 'recipient@example.test',
  subject,
  text: `Body of ${subject}: http://127.0.0.1/t/secret-slug`,
  html: `<p>Body of ${subject}</p><script>alert(1)</script>`,
  tag: 'transfer.sent',
  workspaceId,
});

beforeAll(async () => {
  server = await startTestServer();
  ({ cookie, workspaceId: ownId } = await signUp(server));
  otherId = (await server.createWorkspace()).id;
});
afterAll(() => server.stop());

const get = (p: string, withCookie = true) => server.fetch(p, withCookie ? { headers: { cookie } } : {});

async function expectNotFound(res: Response) {
  expect(res.status).toBe(404);
  expect(ErrorSchema.parse(await res.json()).error.code).toBe('not_found');
}

describe('GET /api/dashboard/mail', () => {
  it('needs a session', async () => {
    const res = await get('/api/dashboard/mail', false);
    expect(res.status).toBe(401);
    expect((await get('/api/dashboard/mail/20260310T120000000Z-0123456789abcdef', false)).status).toBe(401);
  });

  it('lists only the signed-in workspace’s messages, newest first, and serves each as plain text', async () => {
    const { mailer } = server.services;
    expect((await mailer.send(message(ownId, 'own one'))).status).toBe('sent');
    server.clock.advance(1000);
    expect((await mailer.send(message(otherId, 'someone else’s'))).status).toBe('sent');
    expect((await mailer.send(message(ownId, 'own two'))).status).toBe('sent');
    expect((await fs.readdir(path.join(server.dataDir, 'mail'))).filter((f) => f.endsWith('.eml'))).toHaveLength(3);

    const res = await get('/api/dashboard/mail');
    expect(res.status).toBe(200);
    const list = (await res.json()) as MailList;
    expect(list.transport).toBe('files');
    expect(list.messages.map((m) => m.subject)).toEqual(['own two', 'own one']);
    expect(list.messages[0]).toEqual({
      id: expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{16}$/),
      to: 'recipient@example.test',
      subject: 'own two',
      tag: 'transfer.sent',
      createdAt: '2026-03-10T12:00:01.000Z',
    });

    const one = await get(`/api/dashboard/mail/${list.messages[0]!.id}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(one.headers.get('content-disposition')).toBe('inline');
    expect(one.headers.get('cache-control')).toBe('no-store');
    const raw = await one.text();
    expect(raw).toContain('Subject: own two');
    expect(raw).toContain('Body of own two: http://127.0.0.1/t/secret-slug');
  });

  it('answers 404 for another workspace’s message, an unknown id, and anything path-like', async () => {
    await server.services.mailer.send(message(otherId, 'theirs'));
    // The other workspace's id, read straight from the index the server wrote.
    const index = await fs.readFile(path.join(server.dataDir, 'mail', 'index.jsonl'), 'utf8');
    const theirs = index
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; workspaceId: string })
      .find((e) => e.workspaceId === otherId)!;
    await expectNotFound(await get(`/api/dashboard/mail/${theirs.id}`));
    await expectNotFound(await get('/api/dashboard/mail/20990101T000000000Z-0123456789abcdef'));
    for (const id of ['..%2Findex.jsonl', '..%2F..%2Fpostgres%2Fpostmaster.pid', `${theirs.id}.eml`, 'index.jsonl', '%2Fetc%2Fpasswd']) {
      await expectNotFound(await get(`/api/dashboard/mail/${id}`));
    }
    const traversal = await server.fetch('/api/dashboard/mail/../../mail/index.jsonl', { headers: { cookie } });
    expect(traversal.status).not.toBe(200);
  });
});

describe('with SMTP configured', () => {
  it('keeps nothing and says so', async () => {
    const smtpServer = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const { cookie: c } = await signUp(smtpServer);
      const res = await smtpServer.fetch('/api/dashboard/mail', { headers: { cookie: c } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ transport: 'smtp', messages: [] });
      expect((await smtpServer.fetch('/api/dashboard/mail/20260310T120000000Z-0123456789abcdef', { headers: { cookie: c } })).status).toBe(404);
    } finally {
      await smtpServer.stop();
    }
  });
});
