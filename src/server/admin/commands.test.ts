import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeSchema } from '../../contract/me.js';
import { scopes } from '../../contract/scopes.js';
import { ManualClock } from '../core/clock.js';
import { workspaces } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { AdminError, bootstrap, creditAdd, domainClear, domainSet, keyCreate, parseDomain, parseEur, planSet } from './commands.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const db = () => server.services.db;
const email = () => `op-${randomBytes(4).toString('hex')}@example.test`;
const password = 'long enough pw';

async function me(key: string) {
  const res = await server.fetch('/api/v1/me', { token: key });
  expect(res.status).toBe(200);
  return MeSchema.parse(await res.json());
}

async function rejection(promise: Promise<unknown>): Promise<AdminError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AdminError);
  return err as AdminError;
}

describe('bootstrap', () => {
  it('starts the first workspace of a server, the operator\'s, on the paid plan with no end date unless --plan says otherwise', async () => {
    const fresh = await startTestServer();
    try {
      const first = await bootstrap(fresh.services.db, { email: email(), password });
      expect(first).toMatchObject({ plan: 'paid', created: true });
      const res = await fresh.fetch('/api/v1/me', { token: first.apiKey });
      expect(MeSchema.parse(await res.json()).plan).toMatchObject({ name: 'paid', until: null });
      expect(first.scopes).toHaveLength(scopes.length);
      // Only the first: the next bootstrap without --plan is free.
      expect((await bootstrap(fresh.services.db, { email: email(), password })).plan).toBe('free');
    } finally {
      await fresh.stop();
    }
    const another = await startTestServer();
    try {
      expect((await bootstrap(another.services.db, { email: email(), password, plan: 'free' })).plan).toBe('free');
    } finally {
      await another.stop();
    }
  });

  it('creates a paid workspace whose key has all eight scopes and works on the running server', async () => {
    const r = await bootstrap(db(), { email: email(), password, workspaceName: 'Ops', plan: 'paid' });
    expect(r).toMatchObject({ plan: 'paid', created: true });
    expect(r.apiKey).toMatch(/^sk_live_/);
    const body = await me(r.apiKey);
    expect(body.workspace).toMatchObject({ id: r.workspaceId, name: 'Ops' });
    expect(body.plan.name).toBe('paid');
    expect(body.key.name).toBe('bootstrap');
    expect([...body.key.scopes].sort()).toEqual([...scopes].sort());
  });

  it('gives a free workspace (the default) every scope but the paid-only ones', async () => {
    const r = await bootstrap(db(), { email: email(), password });
    const body = await me(r.apiKey);
    expect(body.plan.name).toBe('free');
    expect(body.workspace.name).toBe('My workspace');
    expect(body.key.scopes).toHaveLength(7);
    expect(body.key.scopes).not.toContain('collections:write');
  });

  it('reuses the workspace of an existing email when the password matches, and applies --plan', async () => {
    const address = email();
    const first = await bootstrap(db(), { email: address, password });
    const second = await bootstrap(db(), { email: `  ${address.toUpperCase()} `, password, workspaceName: 'Ignored', plan: 'paid' });
    expect(second).toMatchObject({ workspaceId: first.workspaceId, userId: first.userId, created: false, plan: 'paid' });
    expect(second.apiKey).not.toBe(first.apiKey);
    const body = await me(second.apiKey);
    expect(body.plan.name).toBe('paid');
    expect(body.key.scopes).toHaveLength(8);
    // The first key still works: a second bootstrap adds a key, it does not replace one.
    expect((await me(first.apiKey)).workspace.id).toBe(first.workspaceId);
  });

  it('refuses to reuse an account with the wrong password', async () => {
    const address = email();
    await bootstrap(db(), { email: address, password });
    const err = await rejection(bootstrap(db(), { email: address, password: 'another long password' }));
    expect(err.code).toBe('wrong_password');
    expect(err.exitCode).toBe(1);
  });

  it('validates email and password with the contract schemas', async () => {
    expect((await rejection(bootstrap(db(), { email: 'not-an-email', password }))).message).toMatch(/--email: Enter a valid email/);
    expect((await rejection(bootstrap(db(), { email: email(), password: 'short' }))).message).toMatch(/--password: Use at least 10/);
  });
});

describe('plan set', () => {
  it('sets paid until a date, then free again', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:read']);
    // The test server's own clock stands at 2026-03-10; the command checks `until` against the one it is given.
    const clock = new ManualClock(server.clock.now());
    const until = new Date('2026-06-01T00:00:00Z');
    expect(await planSet(db(), { workspaceId: ws.id, plan: 'paid', until }, clock)).toEqual({
      workspaceId: ws.id,
      plan: 'paid',
      until: '2026-06-01T00:00:00.000Z',
    });
    expect((await me(key)).plan).toMatchObject({ name: 'paid', until: '2026-06-01T00:00:00.000Z' });

    expect(await planSet(db(), { workspaceId: ws.id, plan: 'free' }, clock)).toEqual({ workspaceId: ws.id, plan: 'free', until: null });
    expect((await me(key)).plan.name).toBe('free');
  });

  it('rejects an unknown workspace and an end date in the past', async () => {
    expect((await rejection(planSet(db(), { workspaceId: 'ws_nope', plan: 'paid' }))).code).toBe('not_found');
    const ws = await server.createWorkspace();
    const past = await rejection(planSet(db(), { workspaceId: ws.id, plan: 'paid', until: new Date('2020-01-01T00:00:00Z') }));
    expect(past.code).toBe('invalid_request');
  });
});

describe('credit add', () => {
  it('adds exactly, in micro-euros: 0.1 + 0.2 is 0.3', async () => {
    const ws = await server.createWorkspace();
    expect(await creditAdd(db(), { workspaceId: ws.id, microEur: parseEur('0.1') })).toMatchObject({ creditMicroEur: 100_000 });
    const r = await creditAdd(db(), { workspaceId: ws.id, microEur: parseEur('0.2') });
    expect(r).toEqual({ workspaceId: ws.id, addedEur: 0.2, creditEur: 0.3, creditMicroEur: 300_000 });
    const [row] = await db().select({ credit: workspaces.creditMicroEur }).from(workspaces).where(eq(workspaces.id, ws.id));
    expect(row!.credit).toBe(300_000);
  });

  it('never loses an addition under concurrency', async () => {
    const ws = await server.createWorkspace();
    await Promise.all(Array.from({ length: 10 }, () => creditAdd(db(), { workspaceId: ws.id, microEur: parseEur('0.000001') })));
    const [row] = await db().select({ credit: workspaces.creditMicroEur }).from(workspaces).where(eq(workspaces.id, ws.id));
    expect(row!.credit).toBe(10);
  });

  it('parses amounts strictly and rejects an unknown workspace', async () => {
    expect(parseEur('12.5')).toBe(12_500_000);
    expect(parseEur('0.000001')).toBe(1);
    for (const bad of ['0', '0.0', '-1', '1e3', '1.1234567', 'abc', '', '.5', '1,5']) {
      expect(() => parseEur(bad), bad).toThrow(AdminError);
    }
    expect((await rejection(creditAdd(db(), { workspaceId: 'ws_nope', microEur: 1 }))).code).toBe('not_found');
  });
});

describe('key create', () => {
  it('creates a key with the given scopes on the workspace', async () => {
    const ws = await server.createWorkspace();
    const r = await keyCreate(db(), { workspaceId: ws.id, name: 'ci', scopes: ['transfers:read', 'contacts:write'] });
    expect(r).toMatchObject({ workspaceId: ws.id, name: 'ci', scopes: ['transfers:read', 'contacts:write'] });
    const body = await me(r.apiKey);
    expect(body.key).toMatchObject({ id: r.id, name: 'ci', scopes: ['transfers:read', 'contacts:write'] });
  });

  it('refuses a paid-only scope on a free workspace, and allows it on a paid one', async () => {
    const free = await server.createWorkspace();
    const err = await rejection(keyCreate(db(), { workspaceId: free.id, name: 'x', scopes: ['collections:write'] }));
    expect(err.code).toBe('upgrade_required');
    expect(err.message).toMatch(/free workspace cannot create a key with collections:write/);

    const paid = await server.createWorkspace({ plan: 'paid' });
    const r = await keyCreate(db(), { workspaceId: paid.id, name: 'x', scopes: ['collections:write'] });
    expect(r.scopes).toEqual(['collections:write']);
  });

  it('rejects an unknown workspace, an unknown scope and an empty name', async () => {
    const ws = await server.createWorkspace();
    expect((await rejection(keyCreate(db(), { workspaceId: 'ws_nope', name: 'x', scopes: ['transfers:read'] }))).code).toBe('not_found');
    // @ts-expect-error an unknown scope, as a caller that skipped parseScopes might pass one
    expect((await rejection(keyCreate(db(), { workspaceId: ws.id, name: 'x', scopes: ['billing:write'] }))).code).toBe('invalid_request');
    expect((await rejection(keyCreate(db(), { workspaceId: ws.id, name: '  ', scopes: ['transfers:read'] }))).code).toBe('invalid_request');
  });
});

describe('domain set and clear', () => {
  it('sets a lower-cased domain that /me shows, then clears it', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['contacts:read']);
    expect(await domainSet(db(), { workspaceId: ws.id, domain: ' Files.Example.COM ' })).toEqual({
      workspaceId: ws.id,
      customDomain: 'files.example.com',
      previousDomain: null,
    });
    expect((await me(key)).workspace.customDomain).toBe('files.example.com');

    expect(await domainSet(db(), { workspaceId: ws.id, domain: 'share.example.com' })).toMatchObject({
      customDomain: 'share.example.com',
      previousDomain: 'files.example.com',
    });
    expect(await domainClear(db(), { workspaceId: ws.id })).toEqual({ workspaceId: ws.id, customDomain: null, previousDomain: 'share.example.com' });
    expect((await me(key)).workspace.customDomain).toBeNull();
    // Clearing twice is not an error: the operator's intent holds.
    expect(await domainClear(db(), { workspaceId: ws.id })).toMatchObject({ customDomain: null, previousDomain: null });
  });

  it("refuses another workspace's domain, and lets its holder set it again", async () => {
    const holder = await server.createWorkspace();
    const other = await server.createWorkspace();
    await domainSet(db(), { workspaceId: holder.id, domain: 'taken.example.com' });
    const err = await rejection(domainSet(db(), { workspaceId: other.id, domain: 'TAKEN.example.com' }));
    expect([err.code, err.exitCode]).toEqual(['conflict', 1]);
    expect(err.message).toBe(`taken.example.com is already the domain of workspace ${holder.id}`);
    expect(await domainSet(db(), { workspaceId: holder.id, domain: 'taken.example.com' })).toMatchObject({
      customDomain: 'taken.example.com',
      previousDomain: 'taken.example.com',
    });
  });

  it('gives a domain to exactly one of two workspaces claiming it at once', async () => {
    const [a, b] = await Promise.all([server.createWorkspace(), server.createWorkspace()]);
    const results = await Promise.allSettled([a, b].map((ws) => domainSet(db(), { workspaceId: ws.id, domain: 'race.example.com' })));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected')!.reason as AdminError;
    expect(lost.code).toBe('conflict');
    const owners = await db().select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.customDomain, 'race.example.com'));
    expect(owners).toHaveLength(1);
  });

  it("refuses the server's own host and an unknown workspace", async () => {
    const ws = await server.createWorkspace();
    const own = await rejection(domainSet(db(), { workspaceId: ws.id, domain: 'parcel.example.com', publicUrl: 'https://Parcel.example.com:8443/base' }));
    expect([own.code, own.message]).toEqual([
      'invalid_request',
      "--domain: parcel.example.com is this server's own host (PUBLIC_URL); a workspace needs a domain of its own",
    ]);
    expect((await rejection(domainSet(db(), { workspaceId: 'ws_nope', domain: 'x.example.com' }))).code).toBe('not_found');
    expect((await rejection(domainClear(db(), { workspaceId: 'ws_nope' }))).code).toBe('not_found');
  });

  it('accepts only a bare hostname with a dot, never an IP address', () => {
    expect(parseDomain('files.example.com.')).toBe('files.example.com');
    expect(parseDomain('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(parseDomain(`${'a'.repeat(63)}.example.com`)).toBe(`${'a'.repeat(63)}.example.com`);
    const bad = {
      '': /Give a hostname/,
      'https://files.example.com': /without the scheme/,
      'files.example.com/share': /without a path/,
      'files.example.com:8443': /without a port/,
      localhost: /with a dot/,
      '192.0.2.1': /IP address/,
      '[2001:db8::1]': /IP address/,
      '0x7f.1': /IP address/,
      'files.example.123': /not a hostname/,
      '-files.example.com': /no hyphen at either end/,
      'files-.example.com': /no hyphen at either end/,
      'under_score.example.com': /letters, digits or hyphens/,
      'a..example.com': /1 to 63/,
      [`${'a'.repeat(64)}.example.com`]: /1 to 63/,
      [`${`${'a'.repeat(63)}.`.repeat(4)}com`]: /at most 253/,
      'user@files.example.com': /not a hostname/,
    };
    for (const [value, message] of Object.entries(bad)) {
      let err: unknown;
      try {
        parseDomain(value);
      } catch (e) {
        err = e;
      }
      expect(err, value).toBeInstanceOf(AdminError);
      expect([value, (err as AdminError).code, (err as AdminError).message]).toEqual([value, 'invalid_request', expect.stringMatching(message)]);
    }
  });
});
