// @module-tag scale-out — deliveries are jobs that survive a crash
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import { webhookEventDataSchemas } from '../../contract/webhooks.js';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/index.js';
import { listOutbox } from '../mail/file-mailer.js';
import { dashboardToken, startTestServer, type TestServer } from '../test/harness.js';
import { runTransferSweep } from '../test/worker.js';
import { deliverDueWebhooks } from './dispatcher.js';
import { openSigningSecret, sealPlainSigningSecrets, sealSigningSecret } from './signing.js';
import { answers, startReceiver, verifySignature, type Receiver } from '../test/webhook-receiver.js';
import { parseEnvelope, revokeTransfer, sendTransfer, webhooksApi } from '../test/webhooks.js';

/**
 * Push delivery end to end: a real server (no background dispatcher; each test runs the due
 * deliveries itself) posting to real receivers on 127.0.0.1, with the ManualClock standing in for
 * the hours between retries. And the pull feed, read as an integrator would.
 */

const DELAYS = [60, 300, 1800, 7200, 21600, 43200, 86400];
const SECOND = 1000;

let server: TestServer;
let ok: Receiver;
let failing: Receiver;
let redirecting: Receiver;
let silent: Receiver;

beforeAll(async () => {
  [ok, failing, silent] = await Promise.all([
    startReceiver(answers.status(200, 'thanks')),
    startReceiver(answers.status(500, 'receiver broke')),
    startReceiver(answers.never()),
  ]);
  redirecting = await startReceiver(answers.redirect(`${ok.url}/redirect-target`));
  server = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOK_RETRY_DELAYS: DELAYS.join(','), WEBHOOK_TIMEOUT_SECONDS: '1' });
});
// Every test leaves nothing pending behind, so that each one can count the attempts it causes.
afterEach(async () => {
  await server.services.db.delete(webhookEndpoints);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([ok, failing, redirecting, silent].map((r) => r?.close()));
});

let paths = 0;
/** A fresh path on a receiver, so that each endpoint's requests can be told apart. */
function target(receiver: Receiver) {
  const path = `/hook-${++paths}`;
  return { url: `${receiver.url}${path}`, path, requests: () => receiver.at(path) };
}

async function workspace() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const key = await ws.createKey(['webhooks:read', 'webhooks:write', 'transfers:read', 'transfers:write']);
  return { ws, key, api: webhooksApi(server, key) };
}

const deliverDue = () => deliverDueWebhooks(server.services);
const iso = (ms: number) => new Date(ms).toISOString();

/** The first attempt now, then each retry the moment it is due. Returns the attempts made. */
async function runSchedule(): Promise<number> {
  let attempts = await deliverDue();
  for (const delay of DELAYS) {
    server.clock.advance(delay * SECOND);
    attempts += await deliverDue();
  }
  return attempts;
}

type Api = ReturnType<typeof webhooksApi>;

/** Sends `n` test events and runs them through every retry against a failing receiver. */
async function exhaust(api: Api, webhookId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await api.test(webhookId));
  expect(await runSchedule()).toBe(n * (DELAYS.length + 1));
  return ids;
}

async function pausedMails(workspaceId: string) {
  return (await listOutbox(server.dataDir, workspaceId)).filter((m) => m.tag === 'webhook.paused');
}

describe('a delivery', () => {
  it('is signed so that an independent verifier accepts it, with the event headers and the envelope as body', async () => {
    const { api } = await workspace();
    const hook = target(ok);
    const { webhook, secret } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);

    expect(hook.requests()).toHaveLength(1);
    const [req] = hook.requests();
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['service-delivery-id']).toBe(deliveryId);
    expect(req!.headers['service-event-type']).toBe('webhook.test');
    const envelope = parseEnvelope(req!.rawBody);
    expect(req!.headers['service-event-id']).toBe(envelope.id);
    expect(envelope).toMatchObject({ type: 'webhook.test', createdAt: server.clock.now().toISOString(), data: { endpoint: { id: webhook.id } } });
    expect(envelope.id).toMatch(/^evt_/);

    const signature = req!.headers['service-signature'];
    const now = server.clock.now();
    expect(verifySignature(secret, signature, req!.rawBody, now)).toBe(true);
    expect(signature).toContain(`t=${Math.floor(now.getTime() / 1000)},`);
    // The verifier is not a rubber stamp: another secret, one changed byte or a stale time all fail.
    expect(verifySignature(secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), signature, req!.rawBody, now)).toBe(false);
    const tampered = Buffer.from(req!.rawBody);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expect(verifySignature(secret, signature, tampered, now)).toBe(false);
    expect(verifySignature(secret, signature, req!.rawBody, new Date(now.getTime() + 301 * SECOND))).toBe(false);

    const [attempt] = await api.attempts(webhook.id, deliveryId);
    expect(attempt).toMatchObject({ attempt: 1, success: true, statusCode: 200, error: null, nextRetryAt: null, eventId: envelope.id, responseBody: 'thanks' });
    expect(attempt!.requestBody).toBe(req!.rawBody.toString('utf8'));
    expect((await api.get(webhook.id)).lastSuccessAt).toBe(now.toISOString());
    expect(await deliverDue()).toBe(0);
  });

  it('carries real transfer events only to the endpoints subscribed to their type, and only events after their creation', async () => {
    const { api, key } = await workspace();
    const readyHook = target(ok);
    const expiredHook = target(ok);
    const ready = await api.create({ url: readyHook.url, events: ['transfer.ready'] });
    const expired = await api.create({ url: expiredHook.url, events: ['transfer.expired'] });

    const transferId = await sendTransfer(server, key, 'Signed contract – Müller ✓');
    const lateHook = target(ok);
    const late = await api.create({ url: lateHook.url, events: ['transfer.ready', 'transfer.expired'] });
    expect(await deliverDue()).toBe(1);
    expect(readyHook.requests()).toHaveLength(1);
    const readyReq = readyHook.requests()[0]!;
    expect(parseEnvelope(readyReq.rawBody)).toMatchObject({ type: 'transfer.ready', data: { transfer: { id: transferId, title: 'Signed contract – Müller ✓', fileCount: 1 } } });
    expect(readyReq.headers['service-event-type']).toBe('transfer.ready');
    expect(verifySignature(ready.secret, readyReq.headers['service-signature'], readyReq.rawBody, server.clock.now())).toBe(true);
    expect(expiredHook.requests()).toEqual([]);
    expect(lateHook.requests()).toEqual([]);

    server.clock.advance(SECOND);
    await revokeTransfer(server, key, transferId);
    expect(await deliverDue()).toBe(2);
    for (const [hook, endpoint] of [[expiredHook, expired], [lateHook, late]] as const) {
      expect(hook.requests()).toHaveLength(1);
      const req = hook.requests()[0]!;
      expect(parseEnvelope(req.rawBody)).toMatchObject({ type: 'transfer.expired', data: { transfer: { id: transferId }, reason: 'revoked' } });
      expect(verifySignature(endpoint.secret, req.headers['service-signature'], req.rawBody, server.clock.now())).toBe(true);
      expect(verifySignature(ready.secret, req.headers['service-signature'], req.rawBody, server.clock.now())).toBe(false);
    }
    expect(readyHook.requests()).toHaveLength(1);
  });

  it('is retried against a failing receiver exactly when each delay has passed: eight attempts, then it has failed', async () => {
    const { api, key } = await workspace();
    const hook = target(failing);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const start = server.clock.now().getTime();
    await sendTransfer(server, key);
    const [pending] = (await api.deliveries(webhook.id)).pending;
    const deliveryId = pending!.deliveryId;

    expect(await deliverDue()).toBe(1);
    let due = start;
    for (const [i, delay] of DELAYS.entries()) {
      due += delay * SECOND;
      expect((await api.deliveries(webhook.id)).pending).toEqual([expect.objectContaining({ deliveryId, attempts: i + 1, nextAttemptAt: iso(due) })]);
      server.clock.advance((delay - 1) * SECOND);
      expect(await deliverDue(), `nothing is due a second before retry ${i + 1}`).toBe(0);
      server.clock.advance(SECOND);
      expect(await deliverDue(), `retry ${i + 1} runs when it is due`).toBe(1);
      expect(hook.requests()).toHaveLength(i + 2);
    }
    server.clock.advance(30 * 86_400 * SECOND);
    expect(await deliverDue(), 'no ninth attempt').toBe(0);
    expect(hook.requests()).toHaveLength(8);

    const attempts = await api.attempts(webhook.id, deliveryId);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    let at = start;
    for (const [i, a] of attempts.entries()) {
      expect(a).toMatchObject({ deliveryId, eventType: 'transfer.ready', manual: false, success: false, statusCode: 500, responseBody: 'receiver broke' });
      expect(a.error).toContain('500');
      expect(Number.isInteger(a.durationMs) && a.durationMs >= 0).toBe(true);
      expect(a.attemptedAt).toBe(iso(at));
      if (i < DELAYS.length) {
        at += DELAYS[i]! * SECOND;
        expect(a.nextRetryAt).toBe(iso(at));
      } else {
        expect(a.nextRetryAt).toBeNull();
      }
    }
    expect((await api.deliveries(webhook.id)).pending).toEqual([]);
    const [row] = await server.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(row!.status).toBe('failed');
    // Every attempt was the same event, the same delivery and the same bytes.
    expect(new Set(hook.requests().map((r) => `${r.headers['service-event-id']} ${r.headers['service-delivery-id']} ${r.rawBody.toString('base64')}`)).size).toBe(1);
    const endpoint = await api.get(webhook.id);
    expect(endpoint).toMatchObject({ enabled: true, lastSuccessAt: null, lastFailureAt: iso(at) });
  });

  it('fails on a redirect and never follows it', async () => {
    const { api } = await workspace();
    const hook = target(redirecting);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);

    expect(hook.requests()).toHaveLength(1);
    expect(ok.at('/redirect-target')).toEqual([]);
    const [attempt] = await api.attempts(webhook.id, deliveryId);
    expect(attempt).toMatchObject({ success: false, statusCode: 302, nextRetryAt: iso(server.clock.now().getTime() + DELAYS[0]! * SECOND) });
    expect(attempt!.error).toMatch(/redirect/i);
  });

  it('fails with a time-out when the receiver never answers within WEBHOOK_TIMEOUT_SECONDS', async () => {
    const { api } = await workspace();
    const hook = target(silent);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);

    expect(hook.requests(), 'the request arrived; no answer came').toHaveLength(1);
    const [attempt] = await api.attempts(webhook.id, deliveryId);
    expect(attempt).toMatchObject({ success: false, statusCode: null, responseBody: null, nextRetryAt: iso(server.clock.now().getTime() + DELAYS[0]! * SECOND) });
    expect(attempt!.error).toMatch(/no answer within 1000 ms/i);
    // It waited out the time-out (give or take timer granularity) rather than failing early.
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(950);
  });
});

describe('pausing', () => {
  it('pauses after five deliveries in a row use up their retries, emails the owner once, and matches no new events until resumed', async () => {
    const { ws, api, key } = await workspace();
    const hook = target(failing);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });

    await exhaust(api, webhook.id, 4);
    expect(await api.get(webhook.id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await pausedMails(ws.id)).toEqual([]);

    // The fifth and a sixth use up their retries in the same pass: one pause, one email.
    const [fifth] = await exhaust(api, webhook.id, 2);
    const paused = await api.get(webhook.id);
    expect(paused.enabled).toBe(false);
    expect(paused.disabledReason).toMatch(/5 deliveries in a row/);
    const mails = await pausedMails(ws.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: ws.email, subject: 'A webhook endpoint was paused' });

    // While paused, new events are not matched to it at all.
    await sendTransfer(server, key);
    expect((await api.deliveries(webhook.id)).pending).toEqual([]);
    expect(await deliverDue()).toBe(0);

    // A requested redelivery is still sent, and failing again changes nothing.
    await api.retry(webhook.id, fifth!);
    expect(await deliverDue()).toBe(1);
    expect((await api.attempts(webhook.id, fifth!)).at(-1)).toMatchObject({ attempt: 9, manual: true, success: false });
    expect((await api.get(webhook.id)).enabled).toBe(false);

    // A requested test is still sent; its retry waits for the resume.
    const waiting = await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    server.clock.advance(DELAYS[0]! * SECOND);
    expect(await deliverDue()).toBe(0);
    expect((await api.deliveries(webhook.id)).pending).toEqual([expect.objectContaining({ deliveryId: waiting, attempts: 1 })]);

    // Fixed receiver, resumed: the pending retry continues; the event from the pause never comes.
    const fixed = target(ok);
    expect(await api.update(webhook.id, { enabled: true, url: fixed.url })).toMatchObject({ enabled: true, disabledReason: null });
    expect(await deliverDue()).toBe(1);
    expect(fixed.requests().map((r) => [r.headers['service-delivery-id'], r.headers['service-event-type']])).toEqual([[waiting, 'webhook.test']]);
    expect((await api.deliveries(webhook.id)).pending).toEqual([]);
    server.clock.advance(86_400 * SECOND);
    expect(await deliverDue()).toBe(0);
    expect(await pausedMails(ws.id)).toHaveLength(1);
  });

  it('counts only exhausted deliveries in a row: a success in between starts the count again', async () => {
    const { ws, api } = await workspace();
    const broken = target(failing);
    const working = target(ok);
    const { webhook } = await api.create({ url: broken.url, events: ['transfer.ready'] });

    await exhaust(api, webhook.id, 4);
    await api.update(webhook.id, { url: working.url });
    await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    expect(working.requests()).toHaveLength(1);
    await api.update(webhook.id, { url: broken.url });
    await exhaust(api, webhook.id, 4);
    expect(await api.get(webhook.id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await pausedMails(ws.id)).toEqual([]);

    // The fifth in a row since the success does pause it.
    await exhaust(api, webhook.id, 1);
    expect((await api.get(webhook.id)).enabled).toBe(false);
    expect(await pausedMails(ws.id)).toHaveLength(1);
  });
});

describe('a manual retry', () => {
  it('resends a failed delivery with the same event id, delivery id and byte-identical body', async () => {
    const { api } = await workspace();
    const broken = target(failing);
    const { webhook, secret } = await api.create({ url: broken.url, events: ['transfer.ready'] });
    const deliveryId = await api.test(webhook.id);
    expect(await runSchedule()).toBe(8);
    expect((await api.deliveries(webhook.id)).pending).toEqual([]);
    const original = broken.requests()[0]!;

    const fixed = target(ok);
    await api.update(webhook.id, { url: fixed.url });
    server.clock.advance(3600 * SECOND);
    expect(await api.retry(webhook.id, deliveryId)).toBe(deliveryId);
    expect((await api.deliveries(webhook.id)).pending).toEqual([expect.objectContaining({ deliveryId, attempts: 8 })]);
    expect(await deliverDue()).toBe(1);
    expect(await deliverDue(), 'sent once').toBe(0);

    expect(fixed.requests()).toHaveLength(1);
    const resent = fixed.requests()[0]!;
    expect(resent.headers['service-event-id']).toBe(original.headers['service-event-id']);
    expect(resent.headers['service-delivery-id']).toBe(deliveryId);
    expect(resent.rawBody.equals(original.rawBody)).toBe(true);
    expect(verifySignature(secret, resent.headers['service-signature'], resent.rawBody, server.clock.now())).toBe(true);

    const attempts = await api.attempts(webhook.id, deliveryId);
    expect(attempts).toHaveLength(9);
    expect(attempts[8]).toMatchObject({ attempt: 9, manual: true, success: true, statusCode: 200, nextRetryAt: null, attemptedAt: server.clock.now().toISOString() });
  });

  it('does not count towards pausing, and does not reset the count either', async () => {
    const { ws, api } = await workspace();
    const hook = target(failing);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const [first] = await exhaust(api, webhook.id, 4);

    for (let i = 0; i < 3; i++) {
      await api.retry(webhook.id, first!);
      expect(await deliverDue()).toBe(1);
    }
    const attempts = await api.attempts(webhook.id, first!);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(attempts.map((a) => a.manual)).toEqual([...Array<boolean>(8).fill(false), true, true, true]);
    expect(attempts.some((a) => a.success)).toBe(false);
    expect(attempts.slice(7).map((a) => a.nextRetryAt), 'a redelivery schedules nothing').toEqual([null, null, null, null]);
    expect(await api.get(webhook.id)).toMatchObject({ enabled: true });
    expect(await pausedMails(ws.id)).toEqual([]);

    await exhaust(api, webhook.id, 1);
    expect((await api.get(webhook.id)).enabled).toBe(false);
    expect(await pausedMails(ws.id)).toHaveLength(1);
  });
  it('is not lost when requested while an earlier attempt of the same delivery is still on the wire', async () => {
    const { api } = await workspace();
    const { webhook } = await api.create({ url: target(failing).url, events: ['transfer.ready'] });
    const deliveryId = await api.test(webhook.id);
    expect(await runSchedule()).toBe(8);
    const hanging = target(silent);
    await api.update(webhook.id, { url: hanging.url });

    await api.retry(webhook.id, deliveryId);
    const pass = deliverDue();
    await silent.waitForRequests(silent.requests.length + 1);
    // The receiver holds the first redelivery; a second request arrives meanwhile and is honoured after it.
    await api.retry(webhook.id, deliveryId);
    expect(await pass).toBe(2);
    expect(await deliverDue()).toBe(0);
    expect(hanging.requests()).toHaveLength(2);
    expect((await api.attempts(webhook.id, deliveryId)).slice(8).map((a) => a.manual)).toEqual([true, true]);
  });

  it('a PATCH with enabled true on an enabled endpoint does not restart the pause count', async () => {
    const { ws, api } = await workspace();
    const hook = target(failing);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    await exhaust(api, webhook.id, 4);
    await api.update(webhook.id, { enabled: true });
    await exhaust(api, webhook.id, 1);
    expect((await api.get(webhook.id)).enabled).toBe(false);
    expect(await pausedMails(ws.id)).toHaveLength(1);
  });
});

describe('rotating the secret', () => {
  it('signs the next delivery, a retry of an older event included, with the new secret only', async () => {
    const { api } = await workspace();
    const hook = target(failing);
    const { webhook, secret: oldSecret } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    const before = hook.requests()[0]!;
    expect(verifySignature(oldSecret, before.headers['service-signature'], before.rawBody, server.clock.now())).toBe(true);

    const newSecret = await api.rotate(webhook.id);
    expect(newSecret).not.toBe(oldSecret);
    server.clock.advance(DELAYS[0]! * SECOND);
    expect(await deliverDue()).toBe(1);
    const retried = hook.requests()[1]!;
    expect(retried.headers['service-event-id']).toBe(before.headers['service-event-id']);
    expect(verifySignature(newSecret, retried.headers['service-signature'], retried.rawBody, server.clock.now())).toBe(true);
    expect(verifySignature(oldSecret, retried.headers['service-signature'], retried.rawBody, server.clock.now())).toBe(false);

    await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    const fresh = hook.requests()[2]!;
    expect(fresh.headers['service-event-id']).not.toBe(before.headers['service-event-id']);
    expect(verifySignature(newSecret, fresh.headers['service-signature'], fresh.rawBody, server.clock.now())).toBe(true);
    expect(verifySignature(oldSecret, fresh.headers['service-signature'], fresh.rawBody, server.clock.now())).toBe(false);
  });
});

describe('the signing secret at rest', () => {
  const storedSecret = async (id: string) => (await server.services.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!.signingSecret;

  it('is stored sealed, never as given, and still signs; a sealed value copied to another endpoint does not open', async () => {
    const { api } = await workspace();
    const hook = target(ok);
    const { webhook, secret } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const stored = await storedSecret(webhook.id);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(6, 30));
    expect(openSigningSecret(server.services.webhookSecretKey, webhook.id, stored)).toBe(secret);
    const rotated = await api.rotate(webhook.id);
    expect(await storedSecret(webhook.id)).not.toContain(rotated);

    const other = await api.create({ url: target(ok).url, events: ['transfer.ready'] });
    expect(openSigningSecret(server.services.webhookSecretKey, other.webhook.id, await storedSecret(webhook.id))).toBeNull();
    await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    const [req] = hook.requests();
    expect(verifySignature(rotated, req!.headers['service-signature'], req!.rawBody, server.clock.now())).toBe(true);
  });

  it('is sealed at start when it was stored in plain text before, and signs with the same secret', async () => {
    const { api } = await workspace();
    const hook = target(ok);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const plain = 'whsec_storedbeforesealingexisted0123456789abcdefgh';
    await server.services.db.update(webhookEndpoints).set({ signingSecret: plain }).where(eq(webhookEndpoints.id, webhook.id));
    expect(await sealPlainSigningSecrets(server.services.db, server.services.webhookSecretKey)).toBe(1);
    expect(await sealPlainSigningSecrets(server.services.db, server.services.webhookSecretKey)).toBe(0);
    expect(await storedSecret(webhook.id)).not.toContain(plain);
    await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    const [req] = hook.requests();
    expect(verifySignature(plain, req!.headers['service-signature'], req!.rawBody, server.clock.now())).toBe(true);
  });

  it('that no longer opens (SERVER_SECRET changed) sends nothing: the attempt fails saying to rotate, and a rotation mends it', async () => {
    const { api } = await workspace();
    const hook = target(ok);
    const { webhook } = await api.create({ url: hook.url, events: ['transfer.ready'] });
    const otherKey = Buffer.alloc(32, 7);
    await server.services.db
      .update(webhookEndpoints)
      .set({ signingSecret: sealSigningSecret(otherKey, webhook.id, 'whsec_sealedunderanotherserversecret0123456789') })
      .where(eq(webhookEndpoints.id, webhook.id));
    const deliveryId = await api.test(webhook.id);
    expect(await deliverDue()).toBe(1);
    expect(hook.requests()).toHaveLength(0);
    const [attempt] = await api.attempts(webhook.id, deliveryId);
    expect(attempt).toMatchObject({ success: false, statusCode: null });
    expect(attempt!.error).toMatch(/signing secret could not be read.*Rotate the secret/);

    const secret = await api.rotate(webhook.id);
    server.clock.advance(DELAYS[0]! * SECOND);
    expect(await deliverDue()).toBe(1);
    const [req] = hook.requests();
    expect(verifySignature(secret, req!.headers['service-signature'], req!.rawBody, server.clock.now())).toBe(true);
  });
});

describe('the pull feed', () => {
  it('reads oldest first with a cursor that consumes nothing, and drops a transfer\'s earlier events when it expires', async () => {
    const { api, key } = await workspace();
    const { webhook } = await api.create({ url: null, events: ['transfer.ready', 'transfer.expiring', 'transfer.expired'] });

    const empty = await api.events(webhook.id);
    expect(empty).toMatchObject({ events: [], hasMore: false });
    expect(empty.nextCursor).toEqual(expect.any(String));

    server.clock.advance(SECOND);
    const testDelivery = await api.test(webhook.id);
    server.clock.advance(SECOND);
    const first = await sendTransfer(server, key, 'first');
    server.clock.advance(SECOND);
    const second = await sendTransfer(server, key, 'second');
    const summary = (page: Awaited<ReturnType<Api['events']>>) =>
      page.events.map((e) => `${e.type} ${(e.data.transfer as { id: string } | undefined)?.id ?? e.deliveryId}`);

    const page1 = await api.events(webhook.id, { cursor: empty.nextCursor, limit: 2 });
    expect(summary(page1)).toEqual([`webhook.test ${testDelivery}`, `transfer.ready ${first}`]);
    expect(page1.hasMore).toBe(true);
    expect(page1.events[1]).toMatchObject({ createdAt: iso(server.clock.now().getTime() - SECOND), data: { transfer: { title: 'first' } } });
    expect(await api.events(webhook.id, { cursor: empty.nextCursor, limit: 2 }), 'the same cursor reads the same page').toEqual(page1);
    const page2 = await api.events(webhook.id, { cursor: page1.nextCursor, limit: 2 });
    expect(summary(page2)).toEqual([`transfer.ready ${second}`]);
    expect(page2.hasMore).toBe(false);
    const caughtUp = await api.events(webhook.id, { cursor: page2.nextCursor });
    expect(caughtUp).toMatchObject({ events: [], hasMore: false });

    // An event committed after the read comes after the cursor that read returned.
    server.clock.advance(SECOND);
    await revokeTransfer(server, key, first);
    const after = await api.events(webhook.id, { cursor: caughtUp.nextCursor });
    expect(summary(after)).toEqual([`transfer.expired ${first}`]);
    // Revoked with the key: the key is named.
    expect(after.events[0]!.data).toEqual({ transfer: { id: first }, reason: 'revoked', revokedBy: { kind: 'key', id: expect.stringMatching(/^key_/), name: 'test key', email: null } });

    // From the start, the revoked transfer's ready event is gone; everything else stays in order.
    expect(summary(await api.events(webhook.id))).toEqual([`webhook.test ${testDelivery}`, `transfer.ready ${second}`, `transfer.expired ${first}`]);

    // The second transfer nears its expiry (14 days on the paid plan), then expires: its ready and
    // expiring events leave the feed as well.
    server.clock.advance(13.5 * 86_400 * SECOND);
    await runTransferSweep(server.services);
    const expiring = await api.events(webhook.id, { cursor: after.nextCursor });
    expect(summary(expiring)).toEqual([`transfer.expiring ${second}`]);
    server.clock.advance(86_400 * SECOND);
    await runTransferSweep(server.services);
    const expired = await api.events(webhook.id, { cursor: expiring.nextCursor });
    expect(summary(expired)).toEqual([`transfer.expired ${second}`]);
    expect(expired.events[0]!.data).toEqual({ transfer: { id: second }, reason: 'expired', revokedBy: null });
    expect(summary(await api.events(webhook.id, { limit: 500 }))).toEqual([`webhook.test ${testDelivery}`, `transfer.expired ${first}`, `transfer.expired ${second}`]);
  });

  it('names the member who revoked a transfer in transfer.expired, as its documented payload says', async () => {
    const { ws, api } = await workspace();
    const { webhook } = await api.create({ url: null, events: ['transfer.expired'] });
    const member = await dashboardToken(server, ws);
    const id = await sendTransfer(server, member);
    await revokeTransfer(server, member, id);
    const [expired] = (await api.events(webhook.id)).events;
    expect(webhookEventDataSchemas['transfer.expired'].strict().parse(expired!.data)).toEqual({
      transfer: { id },
      reason: 'revoked',
      revokedBy: { kind: 'member', id: ws.userId, name: null, email: ws.email },
    });
  });

  it('refuses a cursor from another feed or workspace, and a tampered one, with 400', async () => {
    const { api } = await workspace();
    const mine = (await api.create({ url: null, events: ['transfer.ready'] })).webhook;
    const sibling = (await api.create({ url: null, events: ['transfer.ready'] })).webhook;
    const stranger = await workspace();
    const theirs = (await stranger.api.create({ url: null, events: ['transfer.ready'] })).webhook;
    await api.test(mine.id);
    const own = (await api.events(mine.id)).nextCursor;

    const foreign = [
      (await api.events(sibling.id)).nextCursor,
      (await stranger.api.events(theirs.id)).nextCursor,
      `${own.slice(0, -1)}${own.endsWith('A') ? 'B' : 'A'}`,
      'not-a-cursor',
    ];
    for (const cursor of foreign) {
      const res = await api.call(`/webhooks/${mine.id}/events?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(ErrorSchema.parse(await res.json()).error.code).toBe('invalid_request');
    }
    expect((await api.events(mine.id, { cursor: own })).events).toEqual([]);
  });
});
