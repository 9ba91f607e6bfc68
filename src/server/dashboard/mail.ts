import { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { notFound } from '../core/errors.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import { requireSession } from './session.js';

const LIST_LIMIT = 200;

/**
 * /api/dashboard/mail: the mail kept as files when no SMTP server is configured, so a self-hoster
 * sees what would have been sent. Only the signed-in workspace's messages; with SMTP nothing is kept.
 */
export function mailRoutes() {
  const app = new Hono<AppEnv>();
  app.use('*', requireSession);

  app.get('/', async (c) => {
    const { config } = c.var.services;
    if (config.SMTP_URL) return c.json({ transport: 'smtp' as const, messages: [] });
    const entries = await listOutbox(config.DATA_DIR, c.var.user.workspaceId, LIST_LIMIT);
    c.header('Cache-Control', 'no-store');
    return c.json({
      transport: 'files' as const,
      messages: entries.map((e) => ({ id: e.id, to: e.to, subject: e.subject, tag: e.tag, createdAt: e.createdAt })),
    });
  });

  app.get('/:id', async (c) => {
    const { config } = c.var.services;
    const raw = config.SMTP_URL ? null : await readOutboxMessage(config.DATA_DIR, c.var.user.workspaceId, c.req.param('id'));
    if (!raw) throw notFound('Message');
    // Untrusted content: never as HTML. The links in it are capabilities: never cached.
    return c.body(new Uint8Array(raw), 200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Disposition': 'inline',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return app;
}
