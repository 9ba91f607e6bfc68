import { OpenAPIHono, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateApiKeyResponseSchema, SessionSchema } from '../../../contract/dashboard.js';
import { ErrorSchema } from '../../../contract/errors.js';
import { MeSchema } from '../../../contract/me.js';
import { scopes } from '../../../contract/scopes.js';
// Building the v1 routes fills the registry of operations; importing the app module builds them.
import '../../api/v1/index.js';
import { v1Operations, v1Route } from '../../api/v1/route.js';
import { signIn, startTestServer, type TestServer } from '../../test/harness.js';
import type { AppEnv } from '../env.js';
import { ApiError, errorBody } from '../../core/errors.js';

const DAY = 86_400_000;

/** The paid-only operations the real API has, taken before this file adds its probe below. */
const paidOnlyOperations = v1Operations.filter((op) => op.paidOnly).map((op) => ({ ...op }));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function getMe(key: string) {
  const res = await server.fetch('/api/v1/me', { token: key });
  expect(res.status).toBe(200);
  return MeSchema.parse(await res.json());
}

describe('the plan in force', () => {
  it('is paid until the end date, and free with the free allowance from the next request after it', async () => {
    const { config } = server.services;
    const until = new Date(server.clock.now().getTime() + DAY);
    const ws = await server.createWorkspace({ plan: 'paid', planUntil: until });
    const key = await ws.createKey(['transfers:read']);

    const paid = await getMe(key);
    expect(paid.plan.name).toBe('paid');
    expect(paid.plan.until).toBe(until.toISOString());
    expect(paid.plan.limits.monthlyCalls).toBe(config.PAID_MONTHLY_CALLS > 0 ? config.PAID_MONTHLY_CALLS : null);
    expect(paid.plan.limits.webhookEndpoints).toBeGreaterThan(1);

    server.clock.set(until);
    const lapsed = await getMe(key);
    expect(lapsed.plan.name).toBe('free');
    expect(lapsed.plan.until).toBeNull();
    expect(lapsed.plan.limits.monthlyCalls).toBe(config.FREE_MONTHLY_CALLS);
    expect(lapsed.plan.limits.webhookEndpoints).toBe(1);
  });

  it('gates collections:write keys in the dashboard: allowed while paid, 402 after the lapse, allowed again after renewal', async () => {
    const until = new Date(server.clock.now().getTime() + 2 * DAY);
    const ws = await server.createWorkspace({ plan: 'paid', planUntil: until });
    const cookie = await signIn(server, ws);
    const createKey = () =>
      server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie }, json: { name: 'uploader', scopes: ['collections:write'] } });

    const whilePaid = await createKey();
    expect(whilePaid.status).toBe(201);
    const { secret } = CreateApiKeyResponseSchema.parse(await whilePaid.json());

    server.clock.advance(2 * DAY + 1000);
    const afterLapse = await createKey();
    expect(afterLapse.status).toBe(402);
    expect(ErrorSchema.parse(await afterLapse.json()).error.code).toBe('upgrade_required');
    const session = SessionSchema.parse(await (await server.fetch('/api/dashboard/session', { headers: { cookie } })).json());
    expect(session.workspace.plan).toBe('free');
    // A key made while paid keeps working where the free plan is allowed, and reports the plan now in force.
    expect((await getMe(secret)).plan.name).toBe('free');

    await server.setPlan(ws.id, 'paid', null);
    const afterRenewal = await createKey();
    expect(afterRenewal.status).toBe(201);
    expect((await getMe(secret)).plan.name).toBe('paid');
  });
});

describe('paid-only operations', () => {
  it('answer 402 upgrade_required on a free workspace, whichever of them exist', async () => {
    // A key with every scope, made while paid (a free workspace cannot hold collections:write), then the plan lapses.
    const ws = await server.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey([...scopes]);
    await server.setPlan(ws.id, 'free');
    for (const op of paidOnlyOperations) {
      const path = `/api/v1${op.path.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, 'nonexistent_0000')}`;
      const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
      const res = await server.fetch(path, { method: op.method, token: key, ...(hasBody ? { json: {} } : {}) });
      expect(res.status, `${op.method} ${op.path}`).toBe(402);
      expect(ErrorSchema.parse(await res.json()).error.code).toBe('upgrade_required');
    }
  });

  /**
   * No paid-only v1 operation exists yet, so this mounts one built with the real `v1Route` (and
   * so the real authentication, scope and plan middleware) on the test server's services.
   */
  describe('a probe route declared paidOnly through v1Route', () => {
    const probe = new OpenAPIHono<AppEnv>();
    beforeAll(() => {
      probe.use('*', async (c, next) => {
        c.set('services', server.services);
        await next();
      });
      probe.onError((err, c) => {
        if (!(err instanceof ApiError)) throw err;
        for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
        return c.json(errorBody(server.services.config.PUBLIC_URL, err.code, err.message, err.details), err.status as 402);
      });
      const route = v1Route({
        method: 'get',
        path: '/plan-probe',
        operationId: 'planProbe',
        tags: ['Test'],
        scope: 'collections:read',
        paidOnly: true,
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: z.object({ ok: z.literal(true) }) } } } },
      });
      // A probe, not an operation of the API: out of the registry that other test files read (a worker shares modules between files).
      v1Operations.splice(v1Operations.findIndex((op) => op.operationId === 'planProbe'), 1);
      probe.openapi(route, (c) => c.json({ ok: true as const }, 200));
    });
    const callProbe = (key: string) => probe.request('/plan-probe', { headers: { authorization: `Bearer ${key}` } });

    it('answers 402 upgrade_required on the free plan', async () => {
      const ws = await server.createWorkspace();
      const res = await callProbe(await ws.createKey(['collections:read']));
      expect(res.status).toBe(402);
      const { error } = ErrorSchema.parse(await res.json());
      expect(error.code).toBe('upgrade_required');
      expect(error.docs).toMatch(/\/docs\/errors#upgrade_required$/);
    });

    it('works while paid, answers 402 from the first request after the lapse and works again after renewal', async () => {
      const until = new Date(server.clock.now().getTime() + DAY);
      const ws = await server.createWorkspace({ plan: 'paid', planUntil: until });
      const key = await ws.createKey(['collections:read']);
      expect((await callProbe(key)).status).toBe(200);

      server.clock.set(new Date(until.getTime() - 1));
      expect((await callProbe(key)).status).toBe(200);
      server.clock.set(until);
      expect((await callProbe(key)).status).toBe(402);

      await server.setPlan(ws.id, 'paid', new Date(until.getTime() + 30 * DAY));
      expect((await callProbe(key)).status).toBe(200);
    });

    it('checks the scope before the plan, so a free key without the scope learns about the scope', async () => {
      const ws = await server.createWorkspace();
      const res = await callProbe(await ws.createKey(['contacts:read']));
      expect(res.status).toBe(403);
      expect(ErrorSchema.parse(await res.json()).error.code).toBe('insufficient_scope');
    });

    it('authenticates before the plan, so a bad key gets 401, not 402', async () => {
      const res = await callProbe('sk_live_0000000000000000000000000000000000000000000');
      expect(res.status).toBe(401);
    });
  });
});
