import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { TransferSchema, UpdateTransferRequestSchema } from '../../../../contract/transfers.js';
import { transfers } from '../../../db/schema.js';
import type { AppEnv } from '../../../http/env.js';
import { ApiError, notFound } from '../../../http/errors.js';
import { resolveExpiry } from '../../../transfers/drafts.js';
import { loadTransfer } from '../../../transfers/serialize.js';
import { v1Route } from '../route.js';
import { TransferIdParams, json, jsonBody } from './params.js';

const route = v1Route({
  method: 'patch',
  path: '/transfers/{id}',
  operationId: 'updateTransfer',
  tags: ['Transfers'],
  summary: 'Change expiry or download limit',
  description:
    'Our design for amending a transfer, before or after sending: `expiresAt` (paid plan, within the plan\'s range; `402 upgrade_required` on the free plan) and `maxDownloads` (null removes the limit). A transfer that has ended answers `409 conflict` with `details.reason` `transfer_inactive`. Moving the expiry re-arms the `transfer.expiring` warning.',
  scope: 'transfers:write',
  request: { params: TransferIdParams, ...jsonBody(UpdateTransferRequestSchema) },
  responses: { 200: json(TransferSchema, 'The changed transfer') },
});

export function registerUpdateTransfer(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, clock, config } = c.var.services;
    const caller = c.var.caller;
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const now = clock.now();
    const expiresAt = input.expiresAt === undefined ? undefined : resolveExpiry(c.var.services, caller, input.expiresAt, now);
    const updated = await db.transaction(async (tx) => {
      const [t] = await tx
        .select()
        .from(transfers)
        .where(and(eq(transfers.id, id), eq(transfers.workspaceId, caller.workspaceId)))
        .for('update');
      if (!t) throw notFound('Transfer');
      if (t.status !== 'active') throw new ApiError('conflict', `The transfer is ${t.status}`, { reason: 'transfer_inactive', status: t.status });
      const [row] = await tx
        .update(transfers)
        .set({
          ...(expiresAt ? { expiresAt, expiringNotifiedAt: null } : {}),
          ...(input.maxDownloads !== undefined ? { maxDownloads: input.maxDownloads } : {}),
        })
        .where(eq(transfers.id, t.id))
        .returning();
      return row!;
    });
    return c.json(await loadTransfer(db, config.PUBLIC_URL, updated), 200);
  });
}
