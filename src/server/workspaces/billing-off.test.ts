import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminWorkspaceSchema, SessionSchema } from '../../contract/dashboard.js';
import { ErrorSchema } from '../../contract/errors.js';
import { MeSchema, ReferralSchema } from '../../contract/me.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * A server that bills nobody (`BILLING=off`): a workspace whose row says free still has every paid
 * feature, nothing is charged or refused for money, and /me, /me/referral and the session say so
 * in the documented values.
 */

let server: TestServer;
let operator: string;
let member: { cookie: string; workspaceId: string; key: string };

const password = 'correct horse battery';
const newEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.test`;

async function signUp(email: string) {
  const res = await server.fetch('/api/dashboard/signup', { method: 'POST', json: { email, password, workspaceName: 'Acme' } });
  expect(res.status).toBe(201);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('parcel_session='))!.split(';')[0]!;
  return { cookie, session: SessionSchema.parse(await res.json()) };
}

beforeAll(async () => {
  // A small included volume, so that an upload past it would need credit if billing were on.
  server = await startTestServer({ BILLING: 'off', FREE_UPLOAD_BYTES_PER_MONTH: '1000', IMPORTS_ALLOW_INSECURE: '1' });
  operator = (await signUp(newEmail('operator'))).cookie;
  // The second sign-up is stored on DEFAULT_PLAN (free).
  const signedUp = await signUp(newEmail('member'));
  const keyRes = await server.fetch('/api/dashboard/keys', {
    method: 'POST',
    headers: { cookie: signedUp.cookie },
    json: { name: 'ci', scopes: ['transfers:write', 'collections:write', 'webhooks:write'] },
  });
  expect(keyRes.status).toBe(201);
  member = { cookie: signedUp.cookie, workspaceId: signedUp.session.workspace.id, key: ((await keyRes.json()) as { secret: string }).secret };
});
afterAll(() => server.stop());

const v1 = (path: string, init: { method?: string; json?: unknown } = {}) => server.fetch(`/api/v1${path}`, { ...init, token: member.key });

describe('BILLING=off', () => {
  it('reports the paid plan with no end date and no prices, credit or allowance in /me and the session', async () => {
    const me = MeSchema.parse(await (await v1('/me')).json());
    const config = server.services.config;
    expect(me.plan).toMatchObject({ name: 'paid', until: null, billing: 'off' });
    expect(me.plan.limits).toMatchObject({
      monthlyCalls: null,
      includedUploadBytesPerMonth: null,
      uploadPriceEurPerGb: 0,
      webhookEndpoints: 10,
      transferMaxBytes: config.PAID_TRANSFER_MAX_BYTES,
    });
    expect(me.plan.limits.transferExpiry.choosable).toBe(true);
    expect(me.usage.creditEur).toBe(0);

    const session = SessionSchema.parse(await (await server.fetch('/api/dashboard/session', { headers: { cookie: member.cookie } })).json());
    expect(session.billing).toBe('off');
    expect(session.workspace).toMatchObject({ plan: 'paid', planUntil: null });
  });

  it('opens every paid feature: collections, paid webhook events, a chosen expiry, the paid vault quota', async () => {
    expect((await v1('/collections', { method: 'POST', json: { title: 'Open', visibility: 'public' } })).status).toBe(201);
    expect((await v1('/webhooks', { method: 'POST', json: { url: null, events: ['collection.file_uploaded'] } })).status).toBe(201);
    expect((await v1('/webhooks', { method: 'POST', json: { url: null, events: ['transfer.ready'] } })).status).toBe(201);
    const chosen = await v1('/transfers', { method: 'POST', json: { files: [{ name: 'a', size: 1 }], expiresAt: '2026-03-12T12:00:00Z' } });
    expect(chosen.status).toBe(201);
    const vault = (await (await server.fetch('/api/dashboard/vault/usage', { headers: { cookie: member.cookie } })).json()) as { usage: { limitBytes: number } };
    expect(vault.usage.limitBytes).toBe(server.services.config.VAULT_PAID_BYTES);
  });

  it('never charges API uploads nor answers out_of_credit, and still counts the bytes', async () => {
    const before = MeSchema.parse(await (await v1('/me')).json()).usage.apiUploadBytes;
    const res = await v1('/transfers', { method: 'POST', json: { files: [{ name: 'big', size: 5000 }] } });
    expect(res.status).toBe(201);
    // Past the included volume, a URL import of unknown size is not refused either (no worker runs here: nothing is fetched).
    const unknownSize = await v1('/transfers', { method: 'POST', json: { imports: [{ url: 'http://127.0.0.1:9/file.bin' }] } });
    expect(unknownSize.status, JSON.stringify(await unknownSize.clone().json())).toBe(201);
    const me = MeSchema.parse(await (await v1('/me')).json());
    expect(me.usage.apiUploadBytes).toBe(before + 5000);
    expect(me.usage.creditEur).toBe(0);
  });

  it('earns no referral months', async () => {
    const referral = ReferralSchema.parse(await (await v1('/me/referral')).json());
    expect(referral.rule).toMatchObject({ monthsPerReferral: 0, maxFreeMonths: 0 });
    expect(referral.freeMonthsEarned).toBe(0);
  });

  it('shows every workspace as paid on the Admin API and refuses plan changes there', async () => {
    const list = (await (await server.fetch('/api/dashboard/admin/workspaces', { headers: { cookie: operator } })).json()) as { workspaces: unknown[] };
    const row = list.workspaces.map((w) => AdminWorkspaceSchema.parse(w)).find((w) => w.id === member.workspaceId)!;
    expect(row).toMatchObject({ plan: 'paid', planUntil: null });
    const change = await server.fetch(`/api/dashboard/admin/workspaces/${member.workspaceId}`, { method: 'PATCH', headers: { cookie: operator }, json: { plan: 'free' } });
    expect(change.status).toBe(409);
    expect(ErrorSchema.parse(await change.json()).error.details.reason).toBe('billing_off');
  });

  it('reports no end date even for a workspace whose stored paid plan has one', async () => {
    await server.setPlan(member.workspaceId, 'paid', new Date('2026-04-01T00:00:00Z'));
    expect(MeSchema.parse(await (await v1('/me')).json()).plan.until).toBeNull();
    const session = SessionSchema.parse(await (await server.fetch('/api/dashboard/session', { headers: { cookie: member.cookie } })).json());
    expect(session.workspace.planUntil).toBeNull();
    // Past that date nothing changes: the plan is paid because the server bills nobody.
    server.clock.set(new Date('2026-05-01T00:00:00Z'));
    expect(MeSchema.parse(await (await v1('/me')).json()).plan.name).toBe('paid');
  });
});
