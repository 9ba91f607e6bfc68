import { randomUUID } from 'node:crypto';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactListSchema, ContactResponseSchema } from '../../../contract/contacts.js';
import { ErrorSchema } from '../../../contract/errors.js';
import { v1Operations, v1Route } from '../../api/v1/route.js';
import { sha256 } from '../../core/secrets.js';
import { idempotencyKeys } from '../../db/schema/index.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../../test/harness.js';
import type { AppEnv } from '../env.js';
import { ApiError, errorBody } from '../../core/errors.js';

const HOUR = 3_600_000;

let server: TestServer;
/** A workspace with a key that may create and list contacts; tests tell their contacts apart by email. */
let caller: { ws: TestWorkspace; key: string };
beforeAll(async () => {
  server = await startTestServer();
  caller = await newCaller();
});
afterAll(() => server.stop());

let emails = 0;
const newEmail = () => `person${++emails}-${randomUUID().slice(0, 8)}@example.test`;

async function newCaller() {
  const ws = await server.createWorkspace();
  return { ws, key: await ws.createKey(['contacts:write']) };
}

function createContact(key: string, body: unknown, idempotencyKey?: string) {
  return server.fetch('/api/v1/contacts', {
    method: 'POST',
    token: key,
    json: body,
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
  });
}

/** The workspace's contacts with this email address. */
async function contactsOf(key: string, email: string) {
  const res = await server.fetch(`/api/v1/contacts?q=${encodeURIComponent(email)}`, { token: key });
  expect(res.status).toBe(200);
  return ContactListSchema.parse(await res.json()).contacts;
}

async function expectConflict(res: Response, reason: string) {
  expect(res.status).toBe(409);
  const { error } = ErrorSchema.parse(await res.json());
  expect(error.code).toBe('conflict');
  expect(error.details.reason).toBe(reason);
}

describe('Idempotency-Key on POST', () => {
  it.each([
    ['a space', 'two words'],
    ['256 characters', 'k'.repeat(256)],
    ['a character outside ASCII', 'clé-1'],
    ['a tab', 'a\tb'],
  ])('refuses a key with %s: 400 invalid_request, and nothing is created', async (_, badKey) => {
    const email = newEmail();
    const res = await createContact(caller.key, { email }, badKey);
    expect(res.status).toBe(400);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('invalid_request');
    expect(JSON.stringify(error.details)).toContain('Idempotency-Key');
    expect(await contactsOf(caller.key, email)).toHaveLength(0);
  });

  it('accepts a key of exactly 255 printable characters, and a single character', async () => {
    const [a, b] = [newEmail(), newEmail()];
    expect((await createContact(caller.key, { email: a }, '~'.repeat(255))).status).toBe(201);
    expect((await createContact(caller.key, { email: b }, '!')).status).toBe(201);
    expect(await contactsOf(caller.key, a)).toHaveLength(1);
    expect(await contactsOf(caller.key, b)).toHaveLength(1);
  });

  it('replays a repeated success with Idempotent-Replayed: true, byte for byte, and creates nothing new', async () => {
    const { key } = caller;
    const body = { email: newEmail(), firstName: 'Ada', lastName: 'Lovelace', company: 'Engines', phone: '+44 1', type: 'person' };
    const idem = randomUUID();
    const first = await createContact(key, body, idem);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    const { contact } = ContactResponseSchema.parse(JSON.parse(firstBody));

    server.clock.advance(5 * 60_000);
    const again = await createContact(key, body, idem);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.text()).toBe(firstBody);

    const stored = await contactsOf(key, body.email);
    expect(stored.map((c) => c.id)).toEqual([contact.id]);
  });

  it('creates exactly one contact from 100 identical concurrent requests; the rest replay it or say it is in progress', async () => {
    const { key } = caller;
    const body = { email: newEmail(), firstName: 'Grace' };
    const idem = randomUUID();
    const responses = await Promise.all(Array.from({ length: 100 }, () => createContact(key, body, idem)));
    const results = await Promise.all(
      responses.map(async (res) => ({
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        retryAfter: res.headers.get('retry-after'),
        body: await res.text(),
      })),
    );

    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((r) => r.replayed !== 'true')).toHaveLength(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status, r.body).toBe(409);
      expect(JSON.parse(r.body).error.details.reason).toBe('idempotency_in_progress');
      expect(r.retryAfter).toBe('1');
    }
    const stored = await contactsOf(key, body.email);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id).toBe(ContactResponseSchema.parse(JSON.parse(created[0]!.body)).contact.id);
  });

  it('answers 409 idempotency_in_progress with Retry-After: 1 while the first request is still running', async () => {
    const { ws, key } = caller;
    const body = { email: newEmail() };
    const idem = randomUUID();
    // A request that claimed the key and has not finished: the claim the middleware itself writes.
    const now = server.clock.now();
    await server.services.db.insert(idempotencyKeys).values({
      workspaceId: ws.id,
      key: idem,
      requestHash: sha256(`POST\n/api/v1/contacts\n${JSON.stringify(body)}`),
      state: 'running',
      lockedUntil: new Date(now.getTime() + 60_000),
      createdAt: now,
      expiresAt: new Date(now.getTime() + 24 * HOUR),
    });
    const res = await createContact(key, body, idem);
    expect(res.headers.get('retry-after')).toBe('1');
    await expectConflict(res, 'idempotency_in_progress');
    expect(await contactsOf(key, body.email)).toHaveLength(0);

    // A claim left behind by a request that crashed is taken over once its lease runs out.
    server.clock.advance(60_000);
    const recovered = await createContact(key, body, idem);
    expect(recovered.status).toBe(201);
    expect(await contactsOf(key, body.email)).toHaveLength(1);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body', async () => {
    const { key } = caller;
    const idem = randomUUID();
    const [first, second] = [newEmail(), newEmail()];
    expect((await createContact(key, { email: first }, idem)).status).toBe(201);
    await expectConflict(await createContact(key, { email: second }, idem), 'idempotency_key_reused');
    expect(await contactsOf(key, first)).toHaveLength(1);
    expect(await contactsOf(key, second)).toHaveLength(0);
  });

  it('treats a body that differs only in formatting as a different body', async () => {
    const { key } = caller;
    const idem = randomUUID();
    const email = newEmail();
    const send = (raw: string) =>
      server.fetch('/api/v1/contacts', {
        method: 'POST',
        token: key,
        body: raw,
        headers: { 'content-type': 'application/json', 'idempotency-key': idem },
      });
    expect((await send(`{"email":"${email}"}`)).status).toBe(201);
    await expectConflict(await send(`{ "email": "${email}" }`), 'idempotency_key_reused');
  });

  it('answers 409 idempotency_key_reused for the same key on a different path', async () => {
    // Only one POST exists in v1 so far; a second one is built here with the real v1Route
    // (and so the real idempotency middleware), on the same database.
    const probe = new OpenAPIHono<AppEnv>().basePath('/api/v1');
    probe.use('*', async (c, next) => {
      c.set('services', server.services);
      await next();
    });
    probe.onError((err, c) => {
      if (!(err instanceof ApiError)) throw err;
      return c.json(errorBody(server.services.config.PUBLIC_URL, err.code, err.message, err.details), err.status as 409);
    });
    const route = v1Route({
      method: 'post',
      path: '/probe',
      operationId: 'idempotencyProbe',
      tags: ['Test'],
      scope: 'contacts:write',
      request: { body: { content: { 'application/json': { schema: z.object({ email: z.string() }) } } } },
      responses: { 201: { description: 'ok', content: { 'application/json': { schema: z.object({ ok: z.boolean() }) } } } },
    });
    // A probe, not an operation of the API: out of the registry that other test files read (a worker shares modules between files).
    v1Operations.splice(v1Operations.findIndex((op) => op.operationId === 'idempotencyProbe'), 1);
    probe.openapi(route, (c) => c.json({ ok: true }, 201));

    const { key } = caller;
    const idem = randomUUID();
    const body = { email: newEmail() };
    expect((await createContact(key, body, idem)).status).toBe(201);
    const elsewhere = await probe.request('http://127.0.0.1/api/v1/probe', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem },
      body: JSON.stringify(body),
    });
    await expectConflict(elsewhere, 'idempotency_key_reused');
  });

  it('does not remember a request that failed validation: the same key then works with a valid body', async () => {
    const { key } = caller;
    const idem = randomUUID();
    const invalid = await createContact(key, { email: 'not an email' }, idem);
    expect(invalid.status).toBe(400);
    expect(ErrorSchema.parse(await invalid.json()).error.code).toBe('invalid_request');

    const email = newEmail();
    const valid = await createContact(key, { email }, idem);
    expect(valid.status).toBe(201);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
    expect(await contactsOf(key, email)).toHaveLength(1);
  });

  it('runs a request that failed on a conflict again once the conflict is gone', async () => {
    const { key } = caller;
    const body = { email: newEmail() };
    const existing = ContactResponseSchema.parse(await (await createContact(key, body)).json()).contact;
    const idem = randomUUID();
    await expectConflict(await createContact(key, body, idem), 'contact_exists');

    expect((await server.fetch(`/api/v1/contacts/${existing.id}`, { method: 'DELETE', token: key })).status).toBe(200);
    const retried = await createContact(key, body, idem);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(ContactResponseSchema.parse(await retried.json()).contact.id).not.toBe(existing.id);
  });

  it('scopes keys to the workspace: two workspaces using the same key both create', async () => {
    const a = caller;
    const b = await newCaller();
    const idem = randomUUID();
    const body = { email: newEmail() };
    const resA = await createContact(a.key, body, idem);
    const resB = await createContact(b.key, body, idem);
    expect(resA.status).toBe(201);
    expect(resB.status).toBe(201);
    expect(resB.headers.get('idempotent-replayed')).toBeNull();
    const idA = ContactResponseSchema.parse(await resA.json()).contact.id;
    const idB = ContactResponseSchema.parse(await resB.json()).contact.id;
    expect(idA).not.toBe(idB);
    expect((await contactsOf(a.key, body.email)).map((c) => c.id)).toEqual([idA]);
    expect((await contactsOf(b.key, body.email)).map((c) => c.id)).toEqual([idB]);
  });

  it('remembers a key for 24 hours and then forgets it, so the same key creates again', async () => {
    const { key } = caller;
    const idem = randomUUID();
    const body = { email: newEmail() };
    const first = await createContact(key, body, idem);
    expect(first.status).toBe(201);
    const original = ContactResponseSchema.parse(await first.json()).contact;

    server.clock.advance(24 * HOUR - 1000);
    const stillRemembered = await createContact(key, body, idem);
    expect(stillRemembered.headers.get('idempotent-replayed')).toBe('true');
    // And while remembered, it is still bound to its body.
    await expectConflict(await createContact(key, { email: newEmail() }, idem), 'idempotency_key_reused');

    // The contact goes away, so that the same body can create again once the key is forgotten.
    expect((await server.fetch(`/api/v1/contacts/${original.id}`, { method: 'DELETE', token: key })).status).toBe(200);
    server.clock.advance(1000);
    const afresh = await createContact(key, body, idem);
    expect(afresh.status).toBe(201);
    expect(afresh.headers.get('idempotent-replayed')).toBeNull();
    expect(ContactResponseSchema.parse(await afresh.json()).contact.id).not.toBe(original.id);
  });

  it('is ignored on GET, PUT and DELETE, even when its value is invalid', async () => {
    const { key } = caller;
    const invalid = { 'idempotency-key': 'not a valid key' };
    const valid = { 'idempotency-key': randomUUID() };

    const email = newEmail();
    const listOf = () => server.fetch(`/api/v1/contacts?q=${encodeURIComponent(email)}`, { token: key, headers: invalid });
    const emptyList = await listOf();
    expect(emptyList.status).toBe(200);
    expect(ContactListSchema.parse(await emptyList.json()).contacts).toHaveLength(0);
    const { contact } = ContactResponseSchema.parse(await (await createContact(key, { email })).json());
    const fullList = await listOf();
    expect(fullList.headers.get('idempotent-replayed')).toBeNull();
    expect(ContactListSchema.parse(await fullList.json()).contacts).toHaveLength(1);

    // The same valid key on two GETs: the second sees the change in between, it is not a replay.
    const before = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: key, headers: valid });
    expect(before.status).toBe(200);
    const replaced = await server.fetch(`/api/v1/contacts/${contact.id}`, {
      method: 'PUT',
      token: key,
      headers: invalid,
      json: { email: contact.email, firstName: 'Changed' },
    });
    expect(replaced.status).toBe(200);
    const after = await server.fetch(`/api/v1/contacts/${contact.id}`, { token: key, headers: valid });
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(ContactResponseSchema.parse(await after.json()).contact.firstName).toBe('Changed');

    const removed = await server.fetch(`/api/v1/contacts/${contact.id}`, { method: 'DELETE', token: key, headers: invalid });
    expect(removed.status).toBe(200);
  });

  it('keeps the secrets of remembered responses sealed at rest, and replays them identically', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['transfers:write', 'webhooks:write']);
    const post = (path: string, json: unknown, idem: string) =>
      server.fetch(path, { method: 'POST', token: key, json, headers: { 'idempotency-key': idem } });

    const transferIdem = randomUUID();
    const transferBody = { title: 'Sealed', files: [{ name: 'a.txt', size: 3 }] };
    const transfer = await post('/api/v1/transfers', transferBody, transferIdem);
    expect(transfer.status).toBe(201);
    const transferText = await transfer.text();
    const uploadToken = (JSON.parse(transferText) as { files: { uploadToken: string }[] }).files[0]!.uploadToken;

    const webhookIdem = randomUUID();
    const webhookBody = { url: null, events: ['transfer.ready'], description: 'sealed' };
    const webhook = await post('/api/v1/webhooks', webhookBody, webhookIdem);
    expect(webhook.status).toBe(201);
    const webhookText = await webhook.text();
    const { webhook: endpoint, secret } = JSON.parse(webhookText) as { webhook: { id: string }; secret: string };
    const rotateIdem = randomUUID();
    const rotated = await post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, undefined, rotateIdem);
    expect(rotated.status).toBe(200);
    const rotatedText = await rotated.text();
    const rotatedSecret = (JSON.parse(rotatedText) as { secret: string }).secret;

    // Nothing stored for these keys holds the secrets, in any column, in any encoding we know of.
    const rows = await server.services.db.select().from(idempotencyKeys);
    const stored = JSON.stringify(rows.filter((r) => r.workspaceId === ws.id));
    expect(rows.filter((r) => r.workspaceId === ws.id)).toHaveLength(3);
    for (const value of [uploadToken, secret, rotatedSecret]) {
      expect(value.length).toBeGreaterThan(20);
      for (const form of [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('base64url'), Buffer.from(value).toString('hex')]) {
        expect(stored).not.toContain(form);
      }
    }
    // Nor any secret's prefix, outside the ciphertext: random base64url, where any three characters turn up by chance.
    const clear = JSON.stringify(rows.filter((r) => r.workspaceId === ws.id).map(({ responseSealed: _, ...rest }) => rest));
    expect(clear).not.toContain('ut_');
    expect(clear).not.toContain('whsec_');

    // The replays are the original responses, byte for byte, secrets included.
    for (const [path, json, idem, text] of [
      ['/api/v1/transfers', transferBody, transferIdem, transferText],
      ['/api/v1/webhooks', webhookBody, webhookIdem, webhookText],
      [`/api/v1/webhooks/${endpoint.id}/rotate-secret`, undefined, rotateIdem, rotatedText],
    ] as const) {
      const again = await post(path, json, idem);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.text()).toBe(text);
    }
  });
});
