import { z } from '@hono/zod-openapi';
import { ConnectedAppsSchema } from '../../contract/oauth.js';
import { accountIdOf, connectedApps, revokeConnectedApp } from '../oauth/grants.js';
import type { DashboardSurface } from './routes.js';

/**
 * /api/dashboard/connected-apps: the AI assistants the signed-in owner approved (one per OAuth grant),
 * and revoking one, which ends its tokens on their next request. Settings → Connected apps.
 */
export function connectedAppRoutes(surface: DashboardSurface) {
  const accountOf = (c: { var: { user: { workspaceId: string; userId: string } } }) => accountIdOf(c.var.user.workspaceId, c.var.user.userId);
  surface
    .route({ method: 'get', path: '/', auth: 'session', summary: 'The AI assistants the signed-in owner approved', success: { status: 200, schema: ConnectedAppsSchema } }, async (c) =>
      c.json({ apps: await connectedApps(c.var.services.db, accountOf(c)) }),
    )
    .route({ method: 'delete', path: '/:id', auth: 'session', summary: "Revoke an assistant's access", success: { status: 200, schema: z.object({ revoked: z.literal(true) }) } }, async (c, { params }) => {
      await revokeConnectedApp(c.var.services.db, accountOf(c), params.id);
      return c.json({ revoked: true });
    });
}
