import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { TransferSchema, UpdateTransferRequestSchema } from '../../../../contract/transfers.js';
import { hashPassword } from '../../../auth/passwords.js';
import { transferRecipients, transfers } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { addRecipients, resolveExpiry } from '../../../transfers/drafts.js';
import { loadTransfer } from '../../../transfers/serialize.js';
import { v1Route } from '../route.js';
import { TransferIdParams, json, jsonBody } from './params.js';

const route = v1Route({
  method: 'patch',
  path: '/transfers/{id}',
  operationId: 'updateTransfer',
  tags: ['Transfers'],
  summary: 'Change a transfer',
  description: [
    'Our design for amending a transfer. Before or after sending: `expiresAt` (paid plan, within the plan\'s range; `402 upgrade_required` on the free plan; moving it re-arms the `transfer.expiring` warning) and `maxDownloads` (null removes the limit), and `notifications` (which mails the workspace gets about it).',
    'While it is a draft: `title`, `message`, `recipients` (replaces the list) and `password` (null removes it), so that a client can start uploading before the sender has finished typing. After sending these answer `409 conflict` with `details.reason` `transfer_sent`. An end-to-end encrypted transfer takes no title, recipients or password. A transfer that has ended answers `409 conflict` with `details.reason` `transfer_inactive`.',
  ].join('\n\n'),
  scope: 'transfers:write',
  request: { params: TransferIdParams, ...jsonBody(UpdateTransferRequestSchema) },
  responses: { 200: json(TransferSchema, 'The changed transfer') },
});

const draftOnly = ['title', 'message', 'recipients', 'password'] as const;

export function registerUpdateTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, clock, config } = c.var.services;
    const caller = c.var.caller;
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const now = clock.now();
    const expiresAt = input.expiresAt === undefined ? undefined : resolveExpiry(c.var.services, caller, input.expiresAt, now);
    const passwordHash = input.password ? await hashPassword(input.password) : input.password;
    if (input.recipients?.length && !caller.canEmail) {
      throw new ApiError('insufficient_scope', 'Emailing recipients needs the transfers:send permission', { required: 'transfers:send', granted: caller.scopes });
    }
    const updated = await db.transaction(async (tx) => {
      const [t] = await tx
        .select()
        .from(transfers)
        .where(and(eq(transfers.id, id), eq(transfers.workspaceId, caller.workspaceId)))
        .for('update');
      if (!t) throw notFound('Transfer');
      if (t.status !== 'active') throw new ApiError('conflict', `The transfer is ${t.status}`, { reason: 'transfer_inactive', status: t.status });
      const touched = draftOnly.filter((f) => input[f] !== undefined);
      if (touched.length > 0 && t.finalizedAt) {
        throw new ApiError('conflict', `${touched.join(', ')} can only change before the transfer is sent`, { reason: 'transfer_sent', fields: touched });
      }
      if (t.e2ee) {
        const refused = (['title', 'recipients', 'password'] as const).filter((f) => {
          const v = input[f];
          return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null;
        });
        if (refused.length > 0) {
          throw new ApiError('invalid_request', 'An end-to-end encrypted transfer takes no title, recipients or password', {
            location: 'body',
            fields: refused.map((f) => ({ path: f, message: 'not for e2ee transfers' })),
          });
        }
      }
      if (input.recipients !== undefined) {
        await tx.delete(transferRecipients).where(eq(transferRecipients.transferId, t.id));
        await addRecipients(tx, t, input.recipients, now);
      }
      const [row] = await tx
        .update(transfers)
        .set({
          ...(input.title !== undefined ? { title: input.title || null } : {}),
          ...(input.message !== undefined ? { message: input.message || null } : {}),
          ...(passwordHash !== undefined ? { passwordHash } : {}),
          ...(expiresAt ? { expiresAt, expiringNotifiedAt: null } : {}),
          ...(input.maxDownloads !== undefined ? { maxDownloads: input.maxDownloads } : {}),
          ...(input.notifications?.downloads !== undefined ? { notifyDownloads: input.notifications.downloads } : {}),
          ...(input.notifications?.beforeExpiry !== undefined ? { notifyBeforeExpiry: input.notifications.beforeExpiry } : {}),
        })
        .where(eq(transfers.id, t.id))
        .returning();
      return row!;
    });
    return c.json(await loadTransfer(db, config.PUBLIC_URL, updated), 200);
  });
}
