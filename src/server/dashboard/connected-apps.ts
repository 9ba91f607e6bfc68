import { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { accountIdOf, connectedApps, revokeConnectedApp } from '../oauth/grants.js';
import { requireSession } from './session.js';

/**
 * /api/dashboard/connected-apps: the AI assistants the signed-in owner approved (one per OAuth grant),
 * and revoking one, which ends its tokens on their next request. Settings → Connected apps.
 */
export function connectedAppRoutes() {
  const app = new Hono<AppEnv>();
  app.use('*', requireSession);
  const accountOf = (c: { var: AppEnv['Variables'] }) => accountIdOf(c.var.user.workspaceId, c.var.user.userId);

  app.get('/', async (c) => c.json({ apps: await connectedApps(c.var.services.db, accountOf(c)) }));

  app.delete('/:id', async (c) => {
    await revokeConnectedApp(c.var.services.db, accountOf(c), c.req.param('id'));
    return c.json({ revoked: true });
  });
  return app;
}
