import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationSettingsSchema } from '../../contract/dashboard.js';
import { TransferSchema } from '../../contract/transfers.js';
import { signIn, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';

let server: TestServer;
let ws: TestWorkspace;
let cookie: string;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  ws = await server.createWorkspace();
  cookie = await signIn(server, ws);
  key = await ws.createKey(['transfers:read', 'transfers:write']);
});
afterAll(() => server.stop());

const settings = (init: { method?: string; json?: unknown } = {}) => server.fetch('/api/dashboard/notifications', { ...init, headers: { cookie } });
const newTransfer = async (body: Record<string, unknown> = {}) => {
  const res = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { files: [{ name: 'a.txt', size: 1 }], ...body } });
  const { id } = (await res.json()) as { id: string };
  return TransferSchema.parse(await (await server.fetch(`/api/v1/transfers/${id}`, { token: key })).json());
};

describe('notification settings', () => {
  it('are on by default, and new transfers take the workspace\'s choice', async () => {
    expect(NotificationSettingsSchema.parse(await (await settings()).json())).toEqual({ downloads: true, beforeExpiry: true });
    expect((await newTransfer()).notifications).toEqual({ downloads: true, beforeExpiry: true });

    const changed = await settings({ method: 'PATCH', json: { downloads: false } });
    expect(await changed.json()).toEqual({ downloads: false, beforeExpiry: true });
    expect((await newTransfer()).notifications).toEqual({ downloads: false, beforeExpiry: true });
    // A transfer can still choose for itself.
    expect((await newTransfer({ notifications: { downloads: true } })).notifications).toEqual({ downloads: true, beforeExpiry: true });
  });

  it('switch per transfer, before or after sending', async () => {
    const t = await newTransfer();
    const res = await server.fetch(`/api/v1/transfers/${t.id}`, { method: 'PATCH', token: key, json: { notifications: { beforeExpiry: false } } });
    expect(res.status).toBe(200);
    expect(TransferSchema.parse(await res.json()).notifications.beforeExpiry).toBe(false);
  });

  it('refuse an empty change and a signed-out caller', async () => {
    expect((await settings({ method: 'PATCH', json: {} })).status).toBe(400);
    expect((await settings({ method: 'PATCH', json: { downloads: 'no' } })).status).toBe(400);
    expect((await server.fetch('/api/dashboard/notifications')).status).toBe(401);
  });
});
