// @module-tag scale-out — deliveries are jobs that survive a crash
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDeliveryIdSchema, WebhookDeliveryListSchema, WebhookWithSecretSchema } from '../../contract/webhooks.js';
import { loadConfig } from '../config.js';
import { webhookAttempts, webhookDeliveries } from '../db/schema/index.js';
import { createLogger } from '../logger.js';
import { startTestServer, type TestServer, startServer, type RunningServer } from '../test/harness.js';
import { deliverDueWebhooks } from './dispatcher.js';
import { answers, startReceiver, verifySignature, type Answer, type Receiver } from '../test/webhook-receiver.js';
import { parseEnvelope, webhooksApi } from '../test/webhooks.js';

/**
 * At least once, across a `kill -9` and across dispatchers: delivery state lives in the database,
 * claimed under a lease, so a server that dies mid-request loses nothing, and two dispatchers on
 * one database never both send the same due attempt.
 */

const children: ChildProcess[] = [];
const processDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-webhook-crash-'));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

/** `npm start` as its own process (no tsx wrapper, so SIGKILL hits the server), with the background worker. */
async function startServerProcess(port: number, databaseUrl: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: processDataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RUN_WORKER: '1',
    WEBHOOKS_ALLOW_INSECURE: '1',
    WEBHOOK_TIMEOUT_SECONDS: '3',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy: ${stderr}`);
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopChildren() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
}

afterAll(async () => {
  await stopChildren();
  fs.rmSync(processDataDir, { recursive: true, force: true });
});

describe('a server killed during a delivery', () => {
  let admin: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    // Holds the first request open (the server is killed meanwhile); answers 200 after that.
    const holdFirst: Answer = (req, res, n) => {
      if (n > 0) answers.status(200, 'got it')(req, res, n);
    };
    receiver = await startReceiver(holdFirst);
    // The in-process server only provides the database and reads it; the spawned processes deliver.
    admin = await startTestServer();
    admin.clock.set(Date.now());
  });
  afterAll(async () => {
    await stopChildren(); // before their database is dropped
    await admin?.stop();
    await receiver?.close();
  });

  it('sends the same event again after a restart, and the delivery ends succeeded', async () => {
    const ws = await admin.createWorkspace();
    const key = await ws.createKey(['webhooks:read', 'webhooks:write']);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/v1`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const first = await startServerProcess(port, admin.databaseUrl);

    const created = await fetch(`${base}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver.url}/crash`, events: ['transfer.ready'] }) });
    expect(created.status).toBe(201);
    const { webhook, secret } = WebhookWithSecretSchema.parse(await created.json());
    const tested = await fetch(`${base}/webhooks/${webhook.id}/test`, { method: 'POST', headers });
    expect(tested.status).toBe(202);
    const { deliveryId } = WebhookDeliveryIdSchema.parse(await tested.json());

    // The worker sends it; the receiver holds it open; the server dies before any answer.
    await receiver.waitForRequests(1);
    first.kill('SIGKILL');
    await exited(first);
    const [inFlight] = await admin.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(inFlight).toMatchObject({ status: 'pending', attempts: 0 });
    expect(inFlight!.leaseUntil, 'claimed by the killed server').not.toBeNull();

    await startServerProcess(port, admin.databaseUrl);
    await receiver.waitForRequests(2);
    const [lost, again] = receiver.requests;
    expect(again!.headers['service-event-id']).toBe(lost!.headers['service-event-id']);
    expect(again!.headers['service-delivery-id']).toBe(deliveryId);
    expect(again!.rawBody.equals(lost!.rawBody)).toBe(true);
    expect(parseEnvelope(again!.rawBody)).toMatchObject({ type: 'webhook.test', data: { endpoint: { id: webhook.id } } });
    expect(verifySignature(secret, again!.headers['service-signature'], again!.rawBody, new Date())).toBe(true);

    const list = await eventually(
      async () => WebhookDeliveryListSchema.parse(await (await fetch(`${base}/webhooks/${webhook.id}/deliveries`, { headers })).json()),
      (l) => l.attempts.length > 0,
      'the attempt after the restart is recorded',
    );
    expect(list.pending).toEqual([]);
    expect(list.attempts).toEqual([expect.objectContaining({ deliveryId, attempt: 1, success: true, statusCode: 200, responseBody: 'got it' })]);
    const [row] = await admin.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(row).toMatchObject({ status: 'succeeded', leaseUntil: null });
    expect(receiver.requests).toHaveLength(2);
  }, 90_000);
});

describe('two dispatchers on one database', () => {
  let server: TestServer;
  let peer: RunningServer;
  let receiver: Receiver;

  beforeAll(async () => {
    // A little latency, so that the dispatchers' claims overlap.
    receiver = await startReceiver((req, res, n) => setTimeout(() => answers.status(200)(req, res, n), 15));
    server = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOK_CONCURRENCY: '2' });
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: server.dataDir,
      LOG_LEVEL: 'silent',
      RUN_WORKER: '0',
      WEBHOOKS_ALLOW_INSECURE: '1',
      WEBHOOK_CONCURRENCY: '2',
    });
    peer = await startServer(config, { clock: server.clock, databaseUrl: server.databaseUrl, log: createLogger('silent') });
  });
  afterAll(async () => {
    await peer?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('never send one due attempt twice', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const api = webhooksApi(server, await ws.createKey(['webhooks:read', 'webhooks:write']));
    const { webhook } = await api.create({ url: `${receiver.url}/both`, events: ['transfer.ready'] });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await api.test(webhook.id));

    const counts = await Promise.all([
      deliverDueWebhooks(server.services),
      deliverDueWebhooks(peer.services),
      deliverDueWebhooks(server.services),
      deliverDueWebhooks(peer.services),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    const sent = receiver.at('/both').map((r) => r.headers['service-delivery-id']);
    expect(sent).toHaveLength(30);
    expect(new Set(sent)).toEqual(new Set(ids));

    const attempts = await server.services.db.select({ deliveryId: webhookAttempts.deliveryId }).from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
    expect(attempts.map((a) => a.deliveryId).sort()).toEqual([...ids].sort());
    const rows = await server.services.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    expect(rows.map((r) => r.status)).toEqual(Array<string>(30).fill('succeeded'));
    expect(await deliverDueWebhooks(server.services)).toBe(0);
  });
});
