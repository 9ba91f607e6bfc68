import { NotificationSettingsSchema, UpdateNotificationSettingsRequestSchema } from '../../contract/dashboard.js';
import { notificationSettings, updateNotificationSettings } from '../workspaces/accounts.js';
import type { DashboardSurface } from './routes.js';

/** /api/dashboard/notifications: whether new transfers mail the workspace about downloads and about expiring unseen. */
export function notificationSettingsRoutes(surface: DashboardSurface) {
  surface
    .route({ method: 'get', path: '/', auth: 'session', summary: "The workspace's mail settings", success: { status: 200, schema: NotificationSettingsSchema } }, async (c) =>
      c.json(await notificationSettings(c.var.services.db, c.var.user.workspaceId)),
    )
    .route(
      { method: 'patch', path: '/', auth: 'admin', summary: "Change the workspace's mail settings", body: UpdateNotificationSettingsRequestSchema, success: { status: 200, schema: NotificationSettingsSchema } },
      async (c, { body }) => c.json(await updateNotificationSettings(c.var.services.db, c.var.user.workspaceId, body)),
    );
}
