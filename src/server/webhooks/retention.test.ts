import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { sweepWebhookDeliveries } from './retention.js';
import { webhooksApi } from '../test/webhooks.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1' });
});
afterAll(() => server.stop());

const DAY = 24 * 60 * 60 * 1000;

describe('webhook retention', () => {
  it('keeps pull events 30 days, then sweeps them; a push delivery still waiting for its retries is kept', async () => {
    // A push delivery nobody has attempted yet: pending, so kept whatever its age.
    const pushApi = webhooksApi(server, await (await server.createWorkspace()).createKey(['webhooks:write']));
    const push = (await pushApi.create({ url: 'http://127.0.0.1:9/hook', events: ['transfer.ready'] })).webhook;
    const pending = await pushApi.test(push.id);
    const ws = await server.createWorkspace();
    const api = webhooksApi(server, await ws.createKey(['webhooks:write']));
    const { webhook } = await api.create({ url: null, events: ['transfer.ready'] });
    const old = await api.test(webhook.id);
    server.clock.advance(10 * DAY);
    const recent = await api.test(webhook.id);
    server.clock.advance(25 * DAY);

    expect((await api.events(webhook.id)).events.map((e) => e.deliveryId)).toEqual([old, recent]);
    expect(await sweepWebhookDeliveries(server.services.db, server.clock.now())).toBe(1);
    expect((await api.events(webhook.id)).events.map((e) => e.deliveryId)).toEqual([recent]);
    const [stillPending] = await server.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, pending));
    expect(stillPending?.status).toBe('pending');
  });
});
