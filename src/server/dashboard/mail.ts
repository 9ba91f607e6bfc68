import { notFound } from '../core/errors.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import type { DashboardSurface } from './routes.js';
import { said } from '../core/sentences.js';

const LIST_LIMIT = 200;

/**
 * /api/dashboard/mail: the mail kept as files when no SMTP server is configured, so a self-hoster
 * sees what would have been sent. Only the signed-in workspace's messages; with SMTP nothing is kept.
 */
export function mailRoutes(surface: DashboardSurface) {
  surface
    .route({ method: 'get', path: '/', auth: 'session', summary: "The workspace's mail kept as files (newest first)", success: { status: 200 } }, async (c) => {
      const { config } = c.var.services;
      if (config.SMTP_URL) return c.json({ transport: 'smtp' as const, messages: [] });
      const entries = await listOutbox(config.DATA_DIR, c.var.user.workspaceId, LIST_LIMIT);
      c.header('Cache-Control', 'no-store');
      return c.json({
        transport: 'files' as const,
        messages: entries.map((e) => ({ id: e.id, to: e.to, subject: e.subject, tag: e.tag, createdAt: e.createdAt })),
      });
    })
    .route({ method: 'get', path: '/:id', auth: 'session', summary: 'One kept message, as plain text', success: { status: 200, description: 'The message as sent (text/plain).' } }, async (c, { params }) => {
      const { config } = c.var.services;
      const raw = config.SMTP_URL ? null : await readOutboxMessage(config.DATA_DIR, c.var.user.workspaceId, params.id);
      if (!raw) throw notFound(said({ id: 'api.dashboard.messageNotFound', defaultMessage: 'Message not found' }));
      // Untrusted content: never as HTML. The links in it are capabilities: never cached.
      return c.body(new Uint8Array(raw), 200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Disposition': 'inline',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    });
}
