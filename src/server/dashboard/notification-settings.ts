import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { UpdateNotificationSettingsRequestSchema, type NotificationSettings } from '../../contract/dashboard.js';
import type { Database } from '../db/connection.js';
import { workspaces } from '../db/schema/index.js';
import type { AppEnv } from '../http/env.js';
import { parseJsonBody } from '../http/validate.js';
import { requireSession } from './session.js';

async function readSettings(db: Database, workspaceId: string): Promise<NotificationSettings> {
  const [row] = await db
    .select({ downloads: workspaces.notifyDownloads, beforeExpiry: workspaces.notifyBeforeExpiry })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row ?? { downloads: true, beforeExpiry: true };
}

/** /api/dashboard/notifications: whether new transfers mail the workspace about downloads and about expiring unseen. */
export function notificationSettingsRoutes() {
  const app = new Hono<AppEnv>();
  app.use('*', requireSession);

  app.get('/', async (c) => c.json(await readSettings(c.var.services.db, c.var.user.workspaceId)));

  app.patch('/', async (c) => {
    const input = await parseJsonBody(c, UpdateNotificationSettingsRequestSchema);
    const { db } = c.var.services;
    const workspaceId = c.var.user.workspaceId;
    await db
      .update(workspaces)
      .set({
        ...(input.downloads !== undefined ? { notifyDownloads: input.downloads } : {}),
        ...(input.beforeExpiry !== undefined ? { notifyBeforeExpiry: input.beforeExpiry } : {}),
      })
      .where(eq(workspaces.id, workspaceId));
    return c.json(await readSettings(db, workspaceId));
  });
  return app;
}
