/**
 * The SSRF guard as a webhook integrator meets it, at creation and at delivery.
 *
 * These tests never open a connection to any address outside 127.0.0.0/8 and ::1, even if the
 * guard were broken: both servers resolve names through an injected table and open sockets
 * through `outboundGuard().connect`, which connects only to loopback and records and refuses every
 * other address without sending a packet. After each test, any such recorded call the test did
 * not expect fails it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import { webhookEndpoints } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { deliverDueWebhooks } from './dispatcher.js';
import { answers, startReceiver, type Receiver } from '../test/webhook-receiver.js';
import { outboundGuard, webhooksApi } from '../test/webhooks.js';

const PUBLIC = '93.184.216.34';

const strict = outboundGuard();
const insecure = outboundGuard();
let strictServer: TestServer;
let insecureServer: TestServer;
let toMetadata: Receiver;
let strictApi: Api;
let insecureApi: Api;
type Api = ReturnType<typeof webhooksApi>;

beforeAll(async () => {
  strictServer = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '0', WEBHOOK_TIMEOUT_SECONDS: '2' }, { outbound: { lookup: strict.lookup, connect: strict.connect } });
  insecureServer = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOK_TIMEOUT_SECONDS: '2' }, { outbound: { lookup: insecure.lookup, connect: insecure.connect } });
  toMetadata = await startReceiver(answers.redirect('http://169.254.169.254/latest/meta-data/'));
  for (const guard of [strict, insecure]) {
    guard.names.set('hooks.example.test', [PUBLIC]);
    guard.names.set('private.example.test', ['10.0.0.5']);
    guard.names.set('loopback.example.test', ['127.0.0.1']);
  }
  strictApi = await apiOn(strictServer);
  insecureApi = await apiOn(insecureServer);
});
afterEach(async () => {
  for (const guard of [strict, insecure]) {
    const stray = guard.takeConnects().filter((t) => !guard.isLoopback(t.host));
    expect(stray.map((t) => t.host), 'connect was asked for an address outside loopback').toEqual([]);
  }
  await strictServer.services.db.delete(webhookEndpoints);
  await insecureServer.services.db.delete(webhookEndpoints);
});
afterAll(async () => {
  await strictServer?.stop();
  await insecureServer?.stop();
  await toMetadata?.close();
});

async function apiOn(server: TestServer) {
  const ws = await server.createWorkspace({ plan: 'paid' });
  return webhooksApi(server, await ws.createKey(['webhooks:read', 'webhooks:write']));
}

async function expectForbiddenUrl(res: Response) {
  expect(res.status).toBe(400);
  const { error } = ErrorSchema.parse(await res.json());
  expect(error.code).toBe('invalid_request');
  expect(error.details).toMatchObject({ reason: 'forbidden_url', fields: [expect.objectContaining({ path: 'url' })] });
}

const FORBIDDEN_URLS = [
  'https://127.0.0.1/',
  'https://[::1]/',
  'https://10.0.0.1/',
  'https://169.254.169.254/',
  'https://[::ffff:127.0.0.1]/',
  'https://0.0.0.0/',
  'https://private.example.test/hook',
];

describe('creating or changing an endpoint', () => {
  it.each(FORBIDDEN_URLS)('refuses %s with 400 forbidden_url and creates nothing', async (url) => {
    const api = strictApi;
    await expectForbiddenUrl(await api.call('/webhooks', { method: 'POST', json: { url, events: ['transfer.ready'] } }));
    expect(((await (await api.call('/webhooks')).json()) as { webhooks: unknown[] }).webhooks).toEqual([]);
    expect(strict.takeConnects()).toEqual([]);
  });

  it.each(FORBIDDEN_URLS)('refuses PATCH url %s with 400 forbidden_url and keeps the old URL', async (url) => {
    const api = strictApi;
    const { webhook } = await api.create({ url: 'https://hooks.example.test/parcel', events: ['transfer.ready'] });
    await expectForbiddenUrl(await api.call(`/webhooks/${webhook.id}`, { method: 'PATCH', json: { url } }));
    expect((await api.get(webhook.id)).url).toBe('https://hooks.example.test/parcel');
    expect(strict.takeConnects()).toEqual([]);
  });

  it('resolves a host name through the resolver in use, and never looks up a literal address', async () => {
    const api = strictApi;
    strict.lookups.length = 0;
    await expectForbiddenUrl(await api.call('/webhooks', { method: 'POST', json: { url: 'https://10.0.0.1/', events: ['transfer.ready'] } }));
    expect(strict.lookups).toEqual([]);
    await expectForbiddenUrl(await api.call('/webhooks', { method: 'POST', json: { url: 'https://private.example.test/hook', events: ['transfer.ready'] } }));
    expect(strict.lookups).toEqual(['private.example.test']);
  });

  it('refuses http and loopback receivers unless WEBHOOKS_ALLOW_INSECURE is on', async () => {
    const api = strictApi;
    await expectForbiddenUrl(await api.call('/webhooks', { method: 'POST', json: { url: 'http://hooks.example.test/parcel', events: ['transfer.ready'] } }));
    await expectForbiddenUrl(await api.call('/webhooks', { method: 'POST', json: { url: 'https://loopback.example.test/', events: ['transfer.ready'] } }));
  });

  it('with WEBHOOKS_ALLOW_INSECURE on, allows http and loopback receivers but still no private, link-local or unspecified one', async () => {
    const api = insecureApi;
    for (const url of ['http://127.0.0.1:9/hook', 'https://[::1]/hook', 'http://loopback.example.test/hook', 'http://hooks.example.test/hook']) {
      expect((await api.create({ url, events: ['transfer.ready'] })).webhook.url).toBe(url);
    }
    for (const url of ['https://10.0.0.1/', 'http://169.254.169.254/', 'http://[::ffff:10.0.0.1]/', 'http://0.0.0.0/', 'http://private.example.test/hook']) {
      await expectForbiddenUrl(await api.call('/webhooks', { method: 'POST', json: { url, events: ['transfer.ready'] } }));
    }
    expect(insecure.takeConnects()).toEqual([]);
  });
});

describe('delivering', () => {
  let hosts = 0;

  /** An endpoint whose name resolves to a public address at creation; returns its host name. */
  async function endpointOnPublicName(api: Api) {
    const host = `rebind-${++hosts}.example.test`;
    strict.names.set(host, [PUBLIC]);
    const { webhook } = await api.create({ url: `https://${host}/hook`, events: ['transfer.ready'] });
    return { host, webhook };
  }

  it.each(['10.0.0.5', '169.254.169.254', '::ffff:127.0.0.1', '127.0.0.1', '::1', '0.0.0.0', 'fd00::1'])(
    'refuses a name that resolved to a public address at creation and resolves to %s at delivery (DNS rebinding), without connecting',
    async (address) => {
      const api = strictApi;
      const { host, webhook } = await endpointOnPublicName(api);
      strict.names.set(host, [address]);
      const deliveryId = await api.test(webhook.id);
      expect(await deliverDueWebhooks(strictServer.services)).toBe(1);

      expect(strict.takeConnects()).toEqual([]);
      const [attempt] = await api.attempts(webhook.id, deliveryId);
      expect(attempt).toMatchObject({ success: false, statusCode: null, responseBody: null });
      expect(attempt!.error).toContain(`${host} resolves to a forbidden address (${address})`);
      expect(attempt!.nextRetryAt).not.toBeNull();
    },
  );

  it('refuses a name that resolves to a public and a private address at once', async () => {
    const api = strictApi;
    const { host, webhook } = await endpointOnPublicName(api);
    strict.names.set(host, [PUBLIC, '10.0.0.5']);
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDueWebhooks(strictServer.services)).toBe(1);
    expect(strict.takeConnects()).toEqual([]);
    expect((await api.attempts(webhook.id, deliveryId))[0]!.error).toContain('forbidden address (10.0.0.5)');
  });

  it.each(FORBIDDEN_URLS.filter((u) => !u.includes('.example.test')))(
    'refuses a stored URL with the literal address %s (saved before the check existed) without resolving or connecting',
    async (url) => {
      const api = strictApi;
      const { webhook } = await endpointOnPublicName(api);
      await strictServer.services.db.update(webhookEndpoints).set({ url }).where(eq(webhookEndpoints.id, webhook.id));
      strict.lookups.length = 0;
      const deliveryId = await api.test(webhook.id);
      expect(await deliverDueWebhooks(strictServer.services)).toBe(1);

      expect(strict.takeConnects()).toEqual([]);
      expect(strict.lookups).toEqual([]);
      const [attempt] = await api.attempts(webhook.id, deliveryId);
      expect(attempt).toMatchObject({ success: false, statusCode: null });
      expect(attempt!.error).toMatch(/is not allowed \(private, loopback, link-local or reserved\)/);
    },
  );

  it('asks connect only for the checked public address, by IP with the host name for TLS (the guard refuses it: no traffic)', async () => {
    const api = strictApi;
    const { host, webhook } = await endpointOnPublicName(api);
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDueWebhooks(strictServer.services)).toBe(1);

    const connects = strict.takeConnects();
    expect(connects.map(({ host: ip, port, tls }) => ({ ip, port, tls }))).toEqual([{ ip: PUBLIC, port: 443, tls: { servername: host } }]);
    const [attempt] = await api.attempts(webhook.id, deliveryId);
    expect(attempt).toMatchObject({ success: false, statusCode: null });
    expect(attempt!.error).toContain('test guard: no connection');
  });

  it('with WEBHOOKS_ALLOW_INSECURE on, still refuses a loopback name that rebinds to a private address', async () => {
    const api = insecureApi;
    insecure.names.set('dev.example.test', ['127.0.0.1']);
    const { webhook } = await api.create({ url: 'http://dev.example.test:9/hook', events: ['transfer.ready'] });
    insecure.names.set('dev.example.test', ['10.0.0.5']);
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDueWebhooks(insecureServer.services)).toBe(1);
    expect(insecure.takeConnects()).toEqual([]);
    expect((await api.attempts(webhook.id, deliveryId))[0]!.error).toContain('forbidden address (10.0.0.5)');
  });

  it('treats a redirect to the metadata address as a failure and does not follow it', async () => {
    const api = insecureApi;
    const { webhook } = await api.create({ url: `${toMetadata.url}/hook`, events: ['transfer.ready'] });
    insecure.lookups.length = 0;
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDueWebhooks(insecureServer.services)).toBe(1);

    expect(toMetadata.requests).toHaveLength(1);
    expect(insecure.takeConnects().map((t) => t.host)).toEqual(['127.0.0.1']);
    expect(insecure.lookups).toEqual([]);
    const [attempt] = await api.attempts(webhook.id, deliveryId);
    expect(attempt).toMatchObject({ success: false, statusCode: 302 });
    expect(attempt!.error).toMatch(/redirects are not followed/);
  });
});
