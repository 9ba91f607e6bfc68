// @module-tag scale-out — rate limits in Redis
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSchema } from '../../contract/dashboard.js';
import { ErrorSchema } from '../../contract/errors.js';
import { MeSchema } from '../../contract/me.js';
import { keyHint, newApiKey, newId, sha256 } from '../core/secrets.js';
import { apiKeys } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/** Parses the IETF draft list `"name";a=1;b=2, "other";a=3;b=4` into name → parameters. */
function parseRateLimitList(header: string | null, params: [string, string]): Map<string, Record<string, number>> {
  expect(header).not.toBeNull();
  const [p1, p2] = params;
  const member = new RegExp(`^"([a-z-]+)";${p1}=(\\d+);${p2}=(\\d+)$`);
  const out = new Map<string, Record<string, number>>();
  for (const item of header!.split(/,\s*/)) {
    const m = member.exec(item);
    expect(m, `"${item}" is not a ${p1}/${p2} list member`).not.toBeNull();
    out.set(m![1]!, { [p1]: Number(m![2]), [p2]: Number(m![3]) });
  }
  return out;
}

const policyOf = (res: Response) => parseRateLimitList(res.headers.get('ratelimit-policy'), ['q', 'w']);
const stateOf = (res: Response) => parseRateLimitList(res.headers.get('ratelimit'), ['r', 't']);

const startOfMonth = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
const startOfNextMonth = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);

async function insertKeyWithoutScopes(server: TestServer, workspaceId: string): Promise<string> {
  const secret = newApiKey();
  await server.services.db.insert(apiKeys).values({
    id: newId('key'),
    workspaceId,
    name: 'no scopes',
    scopes: [],
    secretHash: sha256(secret),
    hint: keyHint(secret),
    createdAt: server.clock.now(),
  });
  return secret;
}

async function expectRateLimited(res: Response): Promise<number> {
  expect(res.status).toBe(429);
  const { error } = ErrorSchema.parse(await res.json());
  expect(error.code).toBe('rate_limited');
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}

let server: TestServer;
/** Three keys a minute. */
let perKey: TestServer;
/** Five requests a minute without a valid key, five calls a month on the free plan. */
let tight: TestServer;

beforeAll(async () => {
  [server, perKey, tight] = await Promise.all([
    startTestServer(),
    startTestServer({ RATE_LIMIT_KEY_PER_MINUTE: '3' }),
    startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5', FREE_MONTHLY_CALLS: '5' }),
  ]);
});
afterAll(() => Promise.all([server?.stop(), perKey?.stop(), tight?.stop()]));

describe('rate-limit headers', () => {
  it('report the key, workspace-day and monthly buckets of a free workspace in the IETF draft syntax', async () => {
    const { config } = server.services;
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:read']);
    await server.fetch('/api/v1/me', { token: key });
    const res = await server.fetch('/api/v1/me', { token: key });
    expect(res.status).toBe(200);

    const now = server.clock.now();
    const monthSeconds = (startOfNextMonth(now) - startOfMonth(now)) / 1000;
    const policy = policyOf(res);
    expect([...policy.keys()].sort()).toEqual(['key-minute', 'workspace-day', 'workspace-month']);
    expect(policy.get('key-minute')).toEqual({ q: config.RATE_LIMIT_KEY_PER_MINUTE, w: 60 });
    expect(policy.get('workspace-day')).toEqual({ q: config.RATE_LIMIT_WORKSPACE_PER_DAY, w: 86_400 });
    expect(policy.get('workspace-month')).toEqual({ q: config.FREE_MONTHLY_CALLS, w: monthSeconds });

    const state = stateOf(res);
    expect([...state.keys()].sort()).toEqual(['key-minute', 'workspace-day', 'workspace-month']);
    expect(state.get('key-minute')!.r).toBe(config.RATE_LIMIT_KEY_PER_MINUTE - 2);
    expect(state.get('workspace-day')!.r).toBe(config.RATE_LIMIT_WORKSPACE_PER_DAY - 2);
    expect(state.get('workspace-month')!.r).toBe(config.FREE_MONTHLY_CALLS - 2);
    for (const [name, { t }] of state) {
      expect(t, name).toBeGreaterThan(0);
      expect(t, name).toBeLessThanOrEqual(policy.get(name)!.w!);
    }
    expect(state.get('workspace-month')!.t).toBe(Math.ceil((startOfNextMonth(now) - now.getTime()) / 1000));
  });

  it('leave out the monthly bucket on a paid plan without a monthly allowance', async () => {
    expect(server.services.config.PAID_MONTHLY_CALLS).toBe(0);
    const ws = await server.createWorkspace({ plan: 'paid' });
    const res = await server.fetch('/api/v1/me', { token: await ws.createKey(['contacts:read']) });
    expect(res.status).toBe(200);
    expect([...policyOf(res).keys()].sort()).toEqual(['key-minute', 'workspace-day']);
    expect([...stateOf(res).keys()].sort()).toEqual(['key-minute', 'workspace-day']);
  });

  type Keys = { contacts: string; transfersOnly: string; noScopes: string };
  it.each<[string, (keys: Keys) => [string, { method?: string; token: string; json?: unknown }], number]>([
    ['a success', (k) => ['/api/v1/me', { token: k.contacts }], 200],
    ['a 400 for an invalid body', (k) => ['/api/v1/contacts', { method: 'POST', token: k.contacts, json: {} }], 400],
    ['a 403 for a key without scopes', (k) => ['/api/v1/me', { token: k.noScopes }], 403],
    ['a 403 for a key lacking the scope', (k) => ['/api/v1/contacts', { token: k.transfersOnly }], 403],
    ['a 404 for an unknown id', (k) => ['/api/v1/contacts/nonexistent_0000', { token: k.contacts }], 404],
    ['a 404 for a path that is no endpoint', (k) => ['/api/v1/no-such-endpoint', { token: k.contacts }], 404],
    ['a 404 for a method a path does not take', (k) => ['/api/v1/me', { method: 'PUT', token: k.contacts }], 404],
  ])('are on %s', async (_, request, status) => {
    const ws = await server.createWorkspace();
    const keys = {
      contacts: await ws.createKey(['contacts:write']),
      transfersOnly: await ws.createKey(['transfers:read']),
      noScopes: await insertKeyWithoutScopes(server, ws.id),
    };
    const [path, init] = request(keys);
    const res = await server.fetch(path, init);
    expect(res.status).toBe(status);
    expect([...policyOf(res).keys()].sort()).toEqual(['key-minute', 'workspace-day', 'workspace-month']);
    expect([...stateOf(res).keys()].sort()).toEqual(['key-minute', 'workspace-day', 'workspace-month']);
  });
});

describe('the per-key limit', () => {
  it('answers 429 rate_limited with Retry-After past the limit, for that key only and without using the monthly allowance, until the minute is over', async () => {
    const limit = perKey.services.config.RATE_LIMIT_KEY_PER_MINUTE;
    const ws = await perKey.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['contacts:read']);
    const otherKey = await ws.createKey(['contacts:read']);
    for (let i = 0; i < limit; i++) expect((await perKey.fetch('/api/v1/me', { token: key })).status).toBe(200);

    const refused = await perKey.fetch('/api/v1/me', { token: key });
    const now = perKey.clock.now().getTime();
    const retryAfter = await expectRateLimited(refused.clone());
    expect(retryAfter).toBe(Math.ceil((Math.floor(now / 60_000) * 60_000 + 60_000 - now) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(stateOf(refused).get('key-minute')!.r).toBe(0);
    expect((await refused.json()).error.details).toMatchObject({ bucket: 'key-minute', limit });

    // The refused call used none of the month's allowance: the limit's calls plus this one.
    const me = await perKey.fetch('/api/v1/me', { token: otherKey });
    expect(me.status).toBe(200);
    expect((await me.json()).usage.apiCalls).toBe(limit + 1);

    perKey.clock.advance(retryAfter * 1000);
    expect((await perKey.fetch('/api/v1/me', { token: key })).status).toBe(200);
  });
});

describe('requests without a valid key', () => {
  it('are limited per address, and a valid key from the same address neither counts nor is refused', async () => {
    const limit = tight.services.config.RATE_LIMIT_ANONYMOUS_PER_MINUTE;
    const ws = await tight.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['contacts:read']);
    // Twice the anonymous limit with a valid key first: none of it may count against the address.
    for (let i = 0; i < 2 * limit; i++) expect((await tight.fetch('/api/v1/me', { token: key })).status).toBe(200);

    const bad = [undefined, 'garbage', newApiKey()];
    for (let i = 0; i < limit; i++) {
      const res = await tight.fetch('/api/v1/me', { token: bad[i % bad.length] });
      expect(res.status).toBe(401);
    }
    const refused = await tight.fetch('/api/v1/me', { token: newApiKey() });
    const retryAfter = await expectRateLimited(refused);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await tight.fetch('/api/v1/me', { token: key })).status).toBe(200);

    tight.clock.advance(retryAfter * 1000);
    expect((await tight.fetch('/api/v1/me', { token: 'garbage' })).status).toBe(401);
  });

  it('count a path that is no endpoint, asked without a valid key, against the address: still 404, then 429', async () => {
    const limit = tight.services.config.RATE_LIMIT_ANONYMOUS_PER_MINUTE;
    tight.clock.advance(60_000);
    for (let i = 0; i < limit; i++) {
      const res = await tight.fetch('/api/v1/no-such-endpoint', { token: i % 2 === 0 ? undefined : 'garbage' });
      expect(res.status).toBe(404);
      expect(ErrorSchema.parse(await res.json()).error.code).toBe('not_found');
      expect(stateOf(res).get('anonymous-minute')!.r).toBe(limit - i - 1);
    }
    await expectRateLimited(await tight.fetch('/api/v1/no-such-endpoint'));
    tight.clock.advance(60_000);
  });
});

describe('the monthly call allowance', () => {
  it('answers 429 on a free workspace once used up, with Retry-After pointing at the start of next month', async () => {
    const allowance = tight.services.config.FREE_MONTHLY_CALLS;
    const ws = await tight.createWorkspace();
    const key = await ws.createKey(['contacts:read']);
    for (let i = 0; i < allowance; i++) expect((await tight.fetch('/api/v1/me', { token: key })).status).toBe(200);

    // A new key does not get a new allowance: it belongs to the workspace.
    const refused = await tight.fetch('/api/v1/me', { token: await ws.createKey(['contacts:read']) });
    const now = tight.clock.now();
    const retryAfter = await expectRateLimited(refused.clone());
    expect(retryAfter).toBe(Math.ceil((startOfNextMonth(now) - now.getTime()) / 1000));
    expect((await refused.json()).error.details).toMatchObject({ bucket: 'workspace-month', limit: allowance });

    tight.clock.set(startOfNextMonth(now));
    const nextMonth = await tight.fetch('/api/v1/me', { token: key });
    expect(nextMonth.status).toBe(200);
    expect(MeSchema.parse(await nextMonth.json()).usage).toMatchObject({
      month: new Date(startOfNextMonth(now)).toISOString().slice(0, 7),
      apiCalls: 1,
    });
  });

  it('does not limit a paid workspace', async () => {
    const allowance = tight.services.config.FREE_MONTHLY_CALLS;
    const ws = await tight.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['contacts:read']);
    for (let i = 0; i < allowance * 2; i++) expect((await tight.fetch('/api/v1/me', { token: key })).status).toBe(200);
  });

  it('is counted in GET /me as usage.apiCalls, one per call including this one', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:read']);
    const otherKey = await ws.createKey(['contacts:read']);
    await server.fetch('/api/v1/contacts', { token: key });
    await server.fetch('/api/v1/contacts/nonexistent_0000', { token: otherKey });
    const res = await server.fetch('/api/v1/me', { token: key });
    const me = MeSchema.parse(await res.json());
    expect(me.usage.apiCalls).toBe(3);
    expect(me.usage.month).toBe(server.clock.now().toISOString().slice(0, 7));
    expect(stateOf(res).get('workspace-month')!.r).toBe(server.services.config.FREE_MONTHLY_CALLS - 3);
  });

  it('never counts the dashboard\'s own session tokens, which keep the minute and day limits, while API keys count', async () => {
    const signUp = await server.fetch('/api/dashboard/signup', {
      method: 'POST',
      json: { email: `clicks-${newId('x')}@example.test`, password: 'correct horse battery', workspaceName: 'Clicks' },
    });
    expect(signUp.status).toBe(201);
    const cookie = signUp.headers.getSetCookie().find((c) => c.startsWith('parcel_session='))!.split(';')[0]!;
    // On the free plan, whose monthly allowance would show as a bucket if these calls counted.
    await server.setPlan(SessionSchema.parse(await signUp.json()).workspace.id, 'free');
    const { accessToken } = (await (await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } })).json()) as { accessToken: string };
    const clicks = [];
    for (let i = 0; i < 3; i++) clicks.push(await server.fetch('/api/v1/contacts', { token: accessToken }));
    for (const click of clicks) expect(click.status).toBe(200);
    const buckets = [...policyOf(clicks[2]!).keys()];
    expect(buckets).toEqual(['key-minute', 'workspace-day']);
    expect(stateOf(clicks[2]!).get('key-minute')!.r).toBe(server.services.config.RATE_LIMIT_KEY_PER_MINUTE - 3);

    const { secret } = (await (await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'ci', scopes: ['contacts:read'] } })).json()) as { secret: string };
    await server.fetch('/api/v1/contacts', { token: secret });
    const byKey = MeSchema.parse(await (await server.fetch('/api/v1/me', { token: secret })).json());
    expect(byKey.usage.apiCalls).toBe(2);
    // What the dashboard shows (read with its own token) is the same count, not raised by reading it.
    const shown = MeSchema.parse(await (await server.fetch('/api/v1/me', { token: accessToken })).json());
    expect(shown.usage.apiCalls).toBe(2);
  });
});
