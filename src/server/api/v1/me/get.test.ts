import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../../../contract/errors.js';
import { MeSchema } from '../../../../contract/me.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('GET /api/v1/me', () => {
  it('describes the key, its workspace, the plan and this month\'s usage', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:read']);
    const res = await server.fetch('/api/v1/me', { token: key });
    expect(res.status).toBe(200);
    const me = MeSchema.parse(await res.json());
    expect(me.key).toMatchObject({ via: 'key', canEmail: true, scopes: ['contacts:read'], name: 'test key' });
    expect(me.workspace.id).toBe(ws.id);
    expect(me.workspace.customDomain).toBeNull();
    expect(me.plan.name).toBe('free');
    expect(me.plan.limits.monthlyCalls).toBe(50_000);
    expect(me.usage.apiCalls).toBe(1);
  });

  it('answers 401 in the Error shape without a key', async () => {
    const res = await server.fetch('/api/v1/me');
    expect(res.status).toBe(401);
    expect(ErrorSchema.parse(await res.json()).error.code).toBe('unauthorized');
  });
});
