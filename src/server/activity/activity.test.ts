import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityPageSchema, type ActivityEntry } from '../../contract/activity.js';
import { CreateApiKeyResponseSchema, SessionSchema } from '../../contract/dashboard.js';
import { CreateTransferResponseSchema } from '../../contract/transfers.js';
import { WebhookWithSecretSchema } from '../../contract/webhooks.js';
import { runMaintenanceSweep } from '../assembly/worker.js';
import type { OutgoingMessage } from '../mail/message.js';
import { expectError, sessionCookieOf, signIn, recordMail, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { tusUpload } from '../test/uploads.js';

/**
 * The activity log through HTTP, as an owner or admin reads it on the Activity page: what members,
 * keys and the operator did, named as they were then, a page at a time, filtered, exported as CSV,
 * closed to members, never holding a secret, and forgotten after ACTIVITY_RETENTION_DAYS.
 */

let server: TestServer;
let sent: OutgoingMessage[];
let team: TestWorkspace;
let ownerCookie: string;
let member: { id: string; email: string; cookie: string; token: string };
let keySecret: string;
let webhookSecret: string;

const password = 'correct horse battery';
const dashboard = (path: string, cookie: string, init: { method?: string; json?: unknown } = {}) => server.fetch(`/api/dashboard${path}`, { ...init, headers: { cookie } });

async function page(query = '', cookie = ownerCookie) {
  const res = await dashboard(`/activity${query}`, cookie);
  expect(res.status, await res.clone().text()).toBe(200);
  return ActivityPageSchema.parse(await res.json());
}

async function everything(query = ''): Promise<ActivityEntry[]> {
  const entries: ActivityEntry[] = [];
  let cursor: string | null = null;
  do {
    const p = await page(`?limit=3${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    entries.push(...p.entries);
    cursor = p.nextCursor;
  } while (cursor);
  return entries;
}

async function sendTransfer(token: string, title: string) {
  const created = await server.fetch('/api/v1/transfers', { method: 'POST', token, json: { title, files: [{ name: 'a.txt', size: 3 }] } });
  expect(created.status, await created.clone().text()).toBe(201);
  const t = CreateTransferResponseSchema.parse(await created.json());
  await tusUpload(Buffer.from('abc'), { endpoint: `${server.url}/files/`, token: t.files[0]!.uploadToken });
  expect((await server.fetch(`/api/v1/transfers/${t.id}/finalize`, { method: 'POST', token, json: {} })).status).toBe(200);
  return t.id;
}

beforeAll(async () => {
  // A loopback webhook receiver (the development setting) is as good as any for what the log says of it.
  server = await startTestServer({ WEBHOOKS_ALLOW_INSECURE: '1' });
  sent = recordMail(server);
  team = await server.createWorkspace({ plan: 'paid' });
  ownerCookie = await signIn(server, team);

  // A member joins through an invitation, named so that a spreadsheet would run the name as a formula.
  const email = `member-${randomUUID().slice(0, 8)}@example.test`;
  expect((await dashboard('/members/invitations', ownerCookie, { method: 'POST', json: { email, role: 'admin' } })).status).toBe(201);
  const token = sent.find((m) => m.to === email)!.text.match(/\/join\?token=([A-Za-z0-9]+)/)![1]!;
  const joined = await server.fetch('/api/dashboard/join/signup', { method: 'POST', json: { token, name: '=HYPERLINK("http://evil.test")', password } });
  expect(joined.status).toBe(201);
  const cookie = sessionCookieOf(joined);
  const id = SessionSchema.parse(await joined.json()).user.id;
  expect((await dashboard(`/members/${id}`, ownerCookie, { method: 'PATCH', json: { role: 'member' } })).status).toBe(204);
  const minted = await dashboard('/token', cookie, { method: 'POST' });
  member = { id, email, cookie, token: ((await minted.json()) as { accessToken: string }).accessToken };

  await sendTransfer(member.token, 'Quarterly report');
  const key = await dashboard('/keys', ownerCookie, { method: 'POST', json: { name: 'Nightly export', scopes: ['transfers:write', 'webhooks:write'] } });
  expect(key.status, await key.clone().text()).toBe(201);
  const created = CreateApiKeyResponseSchema.parse(await key.json());
  keySecret = created.secret;
  const byKey = await sendTransfer(keySecret, 'From the robot');
  expect((await server.fetch(`/api/v1/transfers/${byKey}/revoke`, { method: 'POST', token: keySecret })).status).toBe(200);
  const hook = await server.fetch('/api/v1/webhooks', { method: 'POST', token: keySecret, json: { url: 'http://127.0.0.1:9/services/T0001/B0001/secret-path-part', events: ['transfer.ready'] } });
  expect(hook.status, await hook.clone().text()).toBe(201);
  webhookSecret = WebhookWithSecretSchema.parse(await hook.json()).secret;
  expect((await dashboard(`/keys/${created.key.id}`, ownerCookie, { method: 'DELETE' })).status).toBe(204);
});
afterAll(() => server.stop());

describe('the activity log', () => {
  it('records who did what, newest first: sign-ins, invitations, joins, roles, transfers, keys and webhooks', async () => {
    const entries = await everything();
    const owner = { type: 'member', id: team.userId, email: team.email };
    const asMember = { type: 'member', id: member.id, name: '=HYPERLINK("http://evil.test")', email: member.email };
    const asKey = { type: 'api_key', name: 'Nightly export', email: null };
    expect(entries.map((e) => e.kind).reverse()).toEqual([
      'member.signed_in',
      'member.invited',
      'member.joined',
      'member.signed_in',
      'member.role_changed',
      'transfer.sent',
      'api_key.created',
      'transfer.sent',
      'transfer.revoked',
      'webhook.created',
      'api_key.revoked',
    ]);
    const [revoked, hook, keyRevoked, keySent, keyCreated, memberSent, roleChanged, , joined, invited] = entries;
    expect(invited).toMatchObject({ actor: owner, subject: { type: 'invitation', name: member.email }, detail: { role: 'admin' } });
    expect(joined).toMatchObject({ actor: asMember, detail: { role: 'admin' } });
    expect(roleChanged).toMatchObject({ actor: owner, subject: { type: 'member', id: member.id }, detail: { from: 'admin', to: 'member' } });
    expect(memberSent).toMatchObject({ actor: asMember, subject: { type: 'transfer', name: 'Quarterly report' }, detail: { files: 1, recipients: 0, encrypted: false } });
    expect(keyCreated).toMatchObject({ actor: owner, subject: { type: 'api_key', name: 'Nightly export' } });
    expect(keySent).toMatchObject({ actor: asKey, subject: { name: 'From the robot' } });
    expect(keyRevoked).toMatchObject({ kind: 'transfer.revoked', actor: asKey, subject: { id: keySent!.subject!.id } });
    // Only the host of a webhook's URL: its path is often the secret.
    expect(hook).toMatchObject({ actor: asKey, subject: { type: 'webhook', name: '127.0.0.1:9' } });
    expect(revoked).toMatchObject({ kind: 'api_key.revoked', actor: owner });
  });

  it('pages without gaps or repeats, filters by person or key and by kind, and refuses a cursor of another list', async () => {
    const all = await everything();
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const first = await page('?limit=2');
    expect(first.entries).toHaveLength(2);
    expect(first.retentionDays).toBe(365);
    expect((await page(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)).entries.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));

    const byMember = await everything(`&actor=${member.id}`);
    expect(byMember.map((e) => e.kind).sort()).toEqual(['member.joined', 'member.signed_in', 'transfer.sent']);
    const sends = await everything('&kind=transfer.sent');
    expect(sends.map((e) => e.subject?.name)).toEqual(['From the robot', 'Quarterly report']);
    await expectError(await dashboard('/activity?kind=transfer.exploded', ownerCookie), 400, 'invalid_request');
    await expectError(await dashboard('/activity?actor=ws_nope', ownerCookie), 400, 'invalid_request');
    const transfers = await server.fetch('/api/v1/transfers?limit=1', { token: member.token });
    const foreign = ((await transfers.json()) as { nextCursor: string | null }).nextCursor;
    expect(foreign).not.toBeNull();
    await expectError(await dashboard(`/activity?cursor=${encodeURIComponent(foreign!)}`, ownerCookie), 400, 'invalid_request');
  });

  it('exports as CSV what the page shows, with formulas defused, and holds no secret', async () => {
    const res = await dashboard('/activity/export', ownerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="activity-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = await res.text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('time,kind,actor_type,actor_id,actor,actor_email,subject_type,subject_id,subject,detail');
    expect(lines).toHaveLength((await everything()).length + 1);
    expect(csv).toContain(`,member,${member.id},"'=HYPERLINK(""http://evil.test"")",${member.email},`);
    for (const secret of [keySecret, webhookSecret, 'secret-path-part', password, team.password]) expect(csv).not.toContain(secret);
    const sends = (await (await dashboard('/activity/export?kind=transfer.sent', ownerCookie)).text()).trimEnd().split('\r\n');
    expect(sends).toHaveLength(3);
  });

  it('names the sender in transfer.ready, so a webhook knows which member sent it', async () => {
    const minted = await dashboard('/token', ownerCookie, { method: 'POST' });
    const ownerToken = ((await minted.json()) as { accessToken: string }).accessToken;
    const feed = await server.fetch('/api/v1/webhooks', { method: 'POST', token: ownerToken, json: { url: null, events: ['transfer.ready'] } });
    expect(feed.status, await feed.clone().text()).toBe(201);
    const { webhook } = WebhookWithSecretSchema.parse(await feed.json());
    const id = await sendTransfer(member.token, 'For the feed');
    const events = (await (await server.fetch(`/api/v1/webhooks/${webhook.id}/events`, { token: ownerToken })).json()) as { events: { type: string; data: { transfer: { id: string; sentBy: unknown } } }[] };
    const ready = events.events.find((e) => e.type === 'transfer.ready' && e.data.transfer.id === id);
    expect(ready?.data.transfer.sentBy).toEqual({ kind: 'member', id: member.id, name: '=HYPERLINK("http://evil.test")', email: member.email });
  });

  it('is for the owner and admins: a member is refused the page and the export', async () => {
    await expectError(await dashboard('/activity', member.cookie), 403, 'forbidden');
    await expectError(await dashboard('/activity/export', member.cookie), 403, 'forbidden');
    // A bearer credential never reaches the dashboard's API.
    expect((await server.fetch('/api/dashboard/activity', { token: member.token })).status).toBe(401);
  });

  it('keeps one workspace’s log out of another’s', async () => {
    const other = await server.createWorkspace();
    const cookie = await signIn(server, other);
    const theirs = (await page('', cookie)).entries;
    expect(theirs.map((e) => e.kind)).toEqual(['member.signed_in']);
    expect(theirs[0]!.actor.id).toBe(other.userId);
  });

  it('forgets entries older than ACTIVITY_RETENTION_DAYS at the maintenance sweep', async () => {
    const before = (await everything()).length;
    server.clock.advance(366 * 24 * 60 * 60 * 1000);
    const cookie = await signIn(server, team);
    await runMaintenanceSweep(server.services);
    const left = (await page('', cookie)).entries;
    expect(before).toBeGreaterThan(1);
    expect(left.map((e) => e.kind)).toEqual(['member.signed_in']);
  });
});
