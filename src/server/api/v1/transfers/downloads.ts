import type { OpenAPIHono } from '@hono/zod-openapi';
import { asc, count, desc, eq } from 'drizzle-orm';
import { TransferDownloadsSchema } from '../../../../contract/transfers.js';
import { downloads, transferRecipients } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { notFound } from '../../../core/errors.js';
import { findTransfer } from '../../../transfers/serialize.js';
import { v1Route } from '../route.js';
import { TransferIdParams, json } from './params.js';

const route = v1Route({
  method: 'get',
  path: '/transfers/{id}/downloads',
  operationId: 'listTransferDownloads',
  tags: ['Transfers'],
  summary: 'Download receipts',
  description:
    'The 200 most recent download events, newest first (one per file or zip download started; a page visit shares one `sessionId`), the recipients with `notifiedAt`, `downloaded` and bounce data, and `totalDownloads`: every download event ever recorded for the transfer.',
  scope: 'transfers:read',
  request: { params: TransferIdParams },
  responses: { 200: json(TransferDownloadsSchema, 'Receipts and recipients') },
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function registerListTransferDownloads(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db } = c.var.services;
    const t = await findTransfer(db, c.var.caller.workspaceId, c.req.valid('param').id);
    if (!t) throw notFound('Transfer');
    const [rows, recipients, [total]] = await Promise.all([
      db.select().from(downloads).where(eq(downloads.transferId, t.id)).orderBy(desc(downloads.createdAt), desc(downloads.id)).limit(200),
      db.select().from(transferRecipients).where(eq(transferRecipients.transferId, t.id)).orderBy(asc(transferRecipients.createdAt), asc(transferRecipients.email)),
      db.select({ n: count() }).from(downloads).where(eq(downloads.transferId, t.id)),
    ]);
    return c.json(
      {
        downloads: rows.map((d) => ({
          id: d.id,
          fileName: d.fileName,
          recipientEmail: d.recipientEmail,
          sessionId: d.sessionId,
          ipTruncated: null,
          createdAt: d.createdAt.toISOString(),
          completedAt: iso(d.completedAt),
        })),
        recipients: recipients.map((r) => ({
          id: r.id,
          email: r.email,
          notifiedAt: iso(r.notifiedAt),
          downloaded: r.downloadedAt !== null,
          opened: false,
          bouncedAt: iso(r.bouncedAt),
          bounceKind: r.bounceKind,
        })),
        totalDownloads: total?.n ?? 0,
      },
      200,
    );
  });
}
