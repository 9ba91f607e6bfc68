import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSchema } from '../../../../contract/dashboard.js';
import { ErrorSchema } from '../../../../contract/errors.js';
import { ReferralSchema, type Referral } from '../../../../contract/me.js';
import { ConfigError, loadConfig } from '../../../config.js';
import { workspaces } from '../../../db/schema/index.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function referralFor(s: TestServer, token: string): Promise<Referral> {
  const res = await s.fetch('/api/v1/me/referral', { token });
  expect(res.status).toBe(200);
  return ReferralSchema.parse(await res.json());
}

/** The code as a visitor's browser sends it: taken from the shared link, not from the `code` field. */
const codeInLink = (referral: Referral) => new URL(referral.link).searchParams.get('ref')!;

/** Signs up a new workspace through the dashboard, as the sign-up page does, and answers its id. */
async function signUpThroughLink(s: TestServer, ref: string | undefined): Promise<string> {
  const res = await s.fetch('/api/dashboard/signup', {
    method: 'POST',
    json: {
      email: `referred-${randomUUID().slice(0, 8)}@example.test`,
      password: 'a long enough password',
      workspaceName: 'Referred',
      ...(ref === undefined ? {} : { ref }),
    },
  });
  expect(res.status).toBe(201);
  return SessionSchema.parse(await res.json()).workspace.id;
}

async function referrerOf(s: TestServer, workspaceId: string) {
  const [row] = await s.services.db.select({ referredBy: workspaces.referredBy }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row!.referredBy;
}

describe('GET /api/v1/me/referral', () => {
  it('gives a new workspace its code and link, no sign-ups, and the default rule', async () => {
    const ws = await server.createWorkspace();
    const referral = await referralFor(server, await ws.createKey(['webhooks:read']));
    expect(referral).toEqual({
      code: expect.stringMatching(/^[A-Z0-9]+$/),
      link: `http://127.0.0.1/signup?ref=${referral.code}`,
      signups: 0,
      qualifyingSignups: 0,
      freeMonthsEarned: 0,
      rule: { earnsOn: 'paid', monthsPerReferral: 1, maxFreeMonths: 12 },
    });
    expect(codeInLink(referral)).toBe(referral.code);
  });

  it('counts a sign-up through the link, and a free month once that workspace has taken a paid plan', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['webhooks:read']);
    const referred = await signUpThroughLink(server, codeInLink(await referralFor(server, key)).toLowerCase());
    expect(await referrerOf(server, referred)).toBe(ws.id);

    expect(await referralFor(server, key)).toMatchObject({ signups: 1, qualifyingSignups: 0, freeMonthsEarned: 0 });

    await server.setPlan(referred, 'paid');
    expect(await referralFor(server, key)).toMatchObject({ signups: 1, qualifyingSignups: 1, freeMonthsEarned: 1 });

    // Having paid once is what counts: going back to the free plan takes nothing away.
    await server.setPlan(referred, 'free');
    expect(await referralFor(server, key)).toMatchObject({ signups: 1, qualifyingSignups: 1, freeMonthsEarned: 1 });
  });

  it('takes the code in any letter case, with stray spaces around it', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['transfers:read']);
    const code = codeInLink(await referralFor(server, key));
    const mixed = [...code].map((ch, i) => (i % 2 ? ch.toLowerCase() : ch)).join('');
    expect(await referrerOf(server, await signUpThroughLink(server, code))).toBe(ws.id);
    expect(await referrerOf(server, await signUpThroughLink(server, ` ${mixed} `))).toBe(ws.id);
    expect((await referralFor(server, key)).signups).toBe(2);
  });

  it('neither fails a sign-up nor records a referrer for an unknown or malformed code', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['webhooks:read']);
    const code = codeInLink(await referralFor(server, key));
    for (const ref of ['ZZZZZZZZZZ', `${code}!`, `../${code}`, 'not a code', '', '   ']) {
      expect(await referrerOf(server, await signUpThroughLink(server, ref)), ref).toBeNull();
    }
    expect((await referralFor(server, key)).signups).toBe(0);
  });

  it('never counts a workspace as its own referral', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    // Sign-up cannot write this (the new workspace has no code yet); the row is forced to prove the count ignores it.
    await server.services.db.update(workspaces).set({ referredBy: ws.id }).where(eq(workspaces.id, ws.id));
    expect(await referralFor(server, await ws.createKey(['webhooks:read']))).toMatchObject({ signups: 0, qualifyingSignups: 0, freeMonthsEarned: 0 });
  });

  it("counts only the caller's own referrals", async () => {
    const referrer = await server.createWorkspace();
    const other = await server.createWorkspace();
    const referrerKey = await referrer.createKey(['webhooks:read']);
    const referred = await signUpThroughLink(server, codeInLink(await referralFor(server, referrerKey)));
    await server.setPlan(referred, 'paid');

    expect(await referralFor(server, referrerKey)).toMatchObject({ signups: 1, qualifyingSignups: 1 });
    expect(await referralFor(server, await other.createKey(['webhooks:read']))).toMatchObject({ signups: 0, qualifyingSignups: 0, freeMonthsEarned: 0 });
  });

  it('answers a key with any one scope, on the free plan and on a paid one', async () => {
    const free = await server.createWorkspace();
    const paid = await server.createWorkspace({ plan: 'paid' });
    for (const key of [await free.createKey(['webhooks:read']), await free.createKey(['contacts:write']), await paid.createKey(['transfers:read'])]) {
      expect((await server.fetch('/api/v1/me/referral', { token: key })).status).toBe(200);
    }
  });

  it('answers 401 in the Error shape without a key', async () => {
    const res = await server.fetch('/api/v1/me/referral');
    expect(res.status).toBe(401);
    expect(ErrorSchema.parse(await res.json()).error.code).toBe('unauthorized');
  });
});

describe("the operator's referral rule", () => {
  it('counts at sign-up with REFERRAL_EARNS_ON=signup, earning the configured months up to the cap', async () => {
    const s = await startTestServer({ REFERRAL_EARNS_ON: 'signup', REFERRAL_FREE_MONTHS: '2', REFERRAL_MAX_FREE_MONTHS: '3' });
    try {
      const ws = await s.createWorkspace();
      const key = await ws.createKey(['webhooks:read']);
      const code = codeInLink(await referralFor(s, key));

      await signUpThroughLink(s, code);
      expect(await referralFor(s, key)).toMatchObject({
        signups: 1,
        qualifyingSignups: 1,
        freeMonthsEarned: 2,
        rule: { earnsOn: 'signup', monthsPerReferral: 2, maxFreeMonths: 3 },
      });

      await signUpThroughLink(s, code);
      expect(await referralFor(s, key)).toMatchObject({ signups: 2, qualifyingSignups: 2, freeMonthsEarned: 3 });
    } finally {
      await s.stop();
    }
  });

  it('still counts referrals but earns nothing with REFERRAL_FREE_MONTHS=0', async () => {
    const s = await startTestServer({ REFERRAL_FREE_MONTHS: '0' });
    try {
      const ws = await s.createWorkspace();
      const key = await ws.createKey(['webhooks:read']);
      await s.setPlan(await signUpThroughLink(s, codeInLink(await referralFor(s, key))), 'paid');
      expect(await referralFor(s, key)).toMatchObject({
        signups: 1,
        qualifyingSignups: 1,
        freeMonthsEarned: 0,
        rule: { earnsOn: 'paid', monthsPerReferral: 0, maxFreeMonths: 12 },
      });
    } finally {
      await s.stop();
    }
  });

  it('refuses a rule it does not know, naming the variable', () => {
    for (const env of [{ REFERRAL_EARNS_ON: 'never' }, { REFERRAL_FREE_MONTHS: '-1' }, { REFERRAL_MAX_FREE_MONTHS: 'twelve' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(Object.keys(env)[0]);
    }
  });
});
