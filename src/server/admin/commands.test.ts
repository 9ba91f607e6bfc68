import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeSchema } from '../../contract/me.js';
import { scopes } from '../../contract/scopes.js';
import { ManualClock } from '../core/clock.js';
import { workspaces } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { AdminError, bootstrap, creditAdd, keyCreate, parseEur, planSet } from './commands.js';

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
