import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookListSchema, WebhookResponseSchema, WebhookWithSecretSchema } from '../../../../contract/webhooks.js';
import { webhookDeliveries } from '../../../db/schema/index.js';
import { emitEvent } from '../../../events/emit.js';
import { expectError, startTestServer, type TestServer } from '../../../test/harness.js';
import { fieldPaths } from '../../../test/contacts.js';

let server: TestServer;
beforeAll(async () => {
  // Loopback receivers are allowed (development setting), so plain http URLs on 127.0.0.1 can be created here.
  server = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1' });
});
afterAll(() => server.stop());

const PUSH_URL = 'http://127.0.0.1:9/hook';

async function create(token: string, json: unknown) {
  return server.fetch('/api/v1/webhooks', { method: 'POST', token, json });
}

async function createOk(token: string, json: unknown) {
  const res = await create(token, json);
  expect(res.status).toBe(201);
  return WebhookWithSecretSchema.parse(await res.json());
}

describe('webhook endpoints', () => {
  it('creates a push endpoint, shows the secret only once, and lists, reads, changes and deletes it', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['webhooks:write']);
    const { webhook, secret } = await createOk(token, { url: PUSH_URL, events: ['transfer.ready'], description: 'Orders' });
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(webhook).toMatchObject({ url: PUSH_URL, mode: 'push', events: ['transfer.ready'], enabled: true, disabledReason: null, lastSuccessAt: null });

    const listed = WebhookListSchema.parse(await (await server.fetch('/api/v1/webhooks', { token })).json());
    expect(listed.webhooks.map((w) => w.id)).toEqual([webhook.id]);
    const read = await server.fetch(`/api/v1/webhooks/${webhook.id}`, { token });
    const readText = await read.text();
    expect(readText).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const patched = await server.fetch(`/api/v1/webhooks/${webhook.id}`, {
      method: 'PATCH',
      token,
      json: { events: ['transfer.ready', 'transfer.expired'], description: 'Orders v2', enabled: false },
    });
    expect(patched.status).toBe(200);
    const after = WebhookResponseSchema.parse(await patched.json()).webhook;
    expect(after).toMatchObject({ events: ['transfer.ready', 'transfer.expired'], description: 'Orders v2', enabled: false });
    expect(after.disabledReason).toBeTruthy();

    const resumed = WebhookResponseSchema.parse(
      await (await server.fetch(`/api/v1/webhooks/${webhook.id}`, { method: 'PATCH', token, json: { enabled: true } })).json(),
    ).webhook;
    expect(resumed).toMatchObject({ enabled: true, disabledReason: null });

    expect((await server.fetch(`/api/v1/webhooks/${webhook.id}`, { method: 'DELETE', token })).status).toBe(200);
    await expectError(await server.fetch(`/api/v1/webhooks/${webhook.id}`, { token }), 404);
    await expectError(await server.fetch(`/api/v1/webhooks/${webhook.id}`, { method: 'DELETE', token }), 404);
  });

  it('creates a pull endpoint with mode "pull" that cannot be given a URL later', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['webhooks:write']);
    const { webhook } = await createOk(token, { url: null, events: ['transfer.downloaded'] });
    expect(webhook).toMatchObject({ url: null, mode: 'pull', description: '' });
    const error = await expectError(await server.fetch(`/api/v1/webhooks/${webhook.id}`, { method: 'PATCH', token, json: { url: PUSH_URL } }), 400);
    expect(fieldPaths(error)).toEqual(['url']);
  });

  it('rotating gives a new secret, once', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['webhooks:write']);
    const { webhook, secret } = await createOk(token, { url: PUSH_URL, events: ['transfer.ready'] });
    const res = await server.fetch(`/api/v1/webhooks/${webhook.id}/rotate-secret`, { method: 'POST', token });
    expect(res.status).toBe(200);
    const rotated = WebhookWithSecretSchema.parse(await res.json());
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
  });

  it('names each bad field: unknown event, empty or repeated events, missing url, non-string description', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['webhooks:write']);
    expect(fieldPaths(await expectError(await create(token, { url: PUSH_URL, events: ['transfer.exploded'] }), 400))).toEqual(['events.0']);
    expect(fieldPaths(await expectError(await create(token, { url: PUSH_URL, events: [] }), 400))).toEqual(['events']);
    expect(fieldPaths(await expectError(await create(token, { url: PUSH_URL, events: ['transfer.ready', 'transfer.ready'] }), 400))).toEqual(['events']);
    expect(fieldPaths(await expectError(await create(token, { events: ['transfer.ready'] }), 400))).toEqual(['url']);
    expect(fieldPaths(await expectError(await create(token, { url: PUSH_URL, events: ['transfer.ready'], description: 7 }), 400))).toEqual(['description']);
    const list = WebhookListSchema.parse(await (await server.fetch('/api/v1/webhooks', { token })).json());
    expect(list.webhooks).toEqual([]);
  });

  it('refuses a URL that is not http(s) or carries credentials, and names the field', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['webhooks:write']);
    for (const url of ['ftp://example.com/hook', 'https://user:pass@example.com/hook', 'not a url']) {
      const error = await expectError(await create(token, { url, events: ['transfer.ready'] }), 400);
      expect(fieldPaths(error)).toEqual(['url']);
    }
  });

  it('needs webhooks:write to change anything; webhooks:read can list', async () => {
    const ws = await server.createWorkspace();
    const reader = await ws.createKey(['webhooks:read']);
    const error = await expectError(await create(reader, { url: PUSH_URL, events: ['transfer.ready'] }), 403);
    expect(error.details).toMatchObject({ required: 'webhooks:write' });
    expect((await server.fetch('/api/v1/webhooks', { token: reader })).status).toBe(200);
  });

  it('does not show another workspace its endpoints', async () => {
    const a = await server.createWorkspace();
    const b = await server.createWorkspace();
    const { webhook } = await createOk(await a.createKey(['webhooks:write']), { url: PUSH_URL, events: ['transfer.ready'] });
    const other = await b.createKey(['webhooks:write']);
    await expectError(await server.fetch(`/api/v1/webhooks/${webhook.id}`, { token: other }), 404);
    await expectError(await server.fetch(`/api/v1/webhooks/${webhook.id}/test`, { method: 'POST', token: other }), 404);
    await expectError(await server.fetch(`/api/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: other }), 404);
  });
});

describe('plan rules', () => {
  it('free: one endpoint, transfer events only, both answered with 402 upgrade_required', async () => {
    const ws = await server.createWorkspace({ plan: 'free' });
    const token = await ws.createKey(['webhooks:write']);
    const paid = await expectError(await create(token, { url: PUSH_URL, events: ['transfer.ready', 'collection.file_uploaded'] }), 402);
    expect(paid).toMatchObject({ code: 'upgrade_required', details: { reason: 'paid_event', events: ['collection.file_uploaded'] } });
    const { webhook } = await createOk(token, { url: PUSH_URL, events: ['transfer.ready', 'webhook.test'] });
    const second = await expectError(await create(token, { url: null, events: ['transfer.ready'] }), 402);
    expect(second).toMatchObject({ code: 'upgrade_required', details: { reason: 'endpoint_limit', limit: 1 } });
    const patch = await expectError(
      await server.fetch(`/api/v1/webhooks/${webhook.id}`, { method: 'PATCH', token, json: { events: ['request.submitted'] } }),
      402,
    );
    expect(patch.details).toMatchObject({ reason: 'paid_event' });
  });

  it('paid: ten endpoints, then 409 endpoint_limit; concurrent creates never pass the limit', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['webhooks:write']);
    const results = await Promise.all(Array.from({ length: 14 }, () => create(token, { url: null, events: ['request.submitted'] })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(4);
    const conflict = results.find((r) => r.status === 409)!;
    expect((await expectError(conflict, 409)).details).toMatchObject({ reason: 'endpoint_limit', limit: 10 });
  });

  it('a lapsed plan stops paid events but keeps transfer events flowing', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['webhooks:write']);
    const { webhook } = await createOk(token, { url: null, events: ['collection.file_uploaded', 'transfer.expired'] });
    const emit = (type: 'collection.file_uploaded' | 'transfer.expired') =>
      server.services.db.transaction((tx) => emitEvent(tx, { workspaceId: ws.id, type, data: { note: type }, now: server.clock.now(), billing: server.services.config }));
    const deliveredTypes = async () =>
      (await server.services.db.select({ type: webhookDeliveries.eventType }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, webhook.id))).map((r) => r.type);

    await emit('collection.file_uploaded');
    expect(await deliveredTypes()).toEqual(['collection.file_uploaded']);
    await server.setPlan(ws.id, 'paid', new Date(server.clock.now().getTime() + 1000));
    server.clock.advance(2000);
    await emit('collection.file_uploaded');
    await emit('transfer.expired');
    expect((await deliveredTypes()).sort()).toEqual(['collection.file_uploaded', 'transfer.expired']);
  });
});

describe('matching events to endpoints', () => {
  it('matches an event only to enabled endpoints subscribed to its type, and never to endpoints created later', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['webhooks:write']);
    const ready = (await createOk(token, { url: null, events: ['transfer.ready'] })).webhook;
    const expired = (await createOk(token, { url: null, events: ['transfer.expired'] })).webhook;
    const paused = (await createOk(token, { url: null, events: ['transfer.ready'] })).webhook;
    await server.fetch(`/api/v1/webhooks/${paused.id}`, { method: 'PATCH', token, json: { enabled: false } });
    await server.services.db.transaction((tx) => emitEvent(tx, { workspaceId: ws.id, type: 'transfer.ready', data: {}, now: server.clock.now(), billing: server.services.config }));
    const later = (await createOk(token, { url: null, events: ['transfer.ready'] })).webhook;

    const feed = async (id: string) => (await (await server.fetch(`/api/v1/webhooks/${id}/events`, { token })).json()) as { events: { type: string }[] };
    expect((await feed(ready.id)).events.map((e) => e.type)).toEqual(['transfer.ready']);
    expect((await feed(expired.id)).events).toEqual([]);
    expect((await feed(paused.id)).events).toEqual([]);
    expect((await feed(later.id)).events).toEqual([]);
  });

  it('a test event reaches the endpoint whatever it subscribes to, as a delivery the caller can follow', async () => {
    const ws = await server.createWorkspace();
    const token = await ws.createKey(['webhooks:write']);
    const { webhook } = await createOk(token, { url: PUSH_URL, events: ['transfer.expired'] });
    const res = await server.fetch(`/api/v1/webhooks/${webhook.id}/test`, { method: 'POST', token });
    expect(res.status).toBe(202);
    const { deliveryId } = (await res.json()) as { deliveryId: string };
    const list = (await (await server.fetch(`/api/v1/webhooks/${webhook.id}/deliveries`, { token })).json()) as {
      attempts: unknown[];
      pending: { deliveryId: string; eventType: string }[];
    };
    expect(list.attempts).toEqual([]);
    expect(list.pending).toEqual([expect.objectContaining({ deliveryId, eventType: 'webhook.test' })]);
  });

  it('retrying a delivery of another endpoint, or any delivery of a pull endpoint, is refused', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['webhooks:write']);
    const push = (await createOk(token, { url: PUSH_URL, events: ['transfer.ready'] })).webhook;
    const other = (await createOk(token, { url: PUSH_URL, events: ['transfer.ready'] })).webhook;
    const pull = (await createOk(token, { url: null, events: ['transfer.ready'] })).webhook;
    const { deliveryId } = (await (await server.fetch(`/api/v1/webhooks/${push.id}/test`, { method: 'POST', token })).json()) as { deliveryId: string };
    await expectError(await server.fetch(`/api/v1/webhooks/${other.id}/deliveries/${deliveryId}/retry`, { method: 'POST', token }), 404);
    const pullTest = (await (await server.fetch(`/api/v1/webhooks/${pull.id}/test`, { method: 'POST', token })).json()) as { deliveryId: string };
    const error = await expectError(await server.fetch(`/api/v1/webhooks/${pull.id}/deliveries/${pullTest.deliveryId}/retry`, { method: 'POST', token }), 409);
    expect(error.details).toMatchObject({ reason: 'pull_endpoint' });
    const feedOfPush = await expectError(await server.fetch(`/api/v1/webhooks/${push.id}/events`, { token }), 409);
    expect(feedOfPush.details).toMatchObject({ reason: 'push_endpoint' });
  });
});
