import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq, exists, ilike, isNotNull, isNull, or, lt, sql, type SQL } from 'drizzle-orm';
import { TransferListQuerySchema, TransferListSchema } from '../../../../contract/transfers.js';
import { transferFiles, transfers } from '../../../db/schema.js';
import type { AppEnv } from '../../../http/env.js';
import { decodeCursor, encodeCursor } from '../../../http/pagination.js';
import { loadSummaries, newestFirst } from '../../../transfers/serialize.js';
import { v1Route } from '../route.js';
import { json } from './params.js';

const route = v1Route({
  method: 'get',
  path: '/transfers',
  operationId: 'listTransfers',
  tags: ['Transfers'],
  summary: 'List transfers',
  description:
    'Newest first, drafts included, paginated (`limit` 1 to 500, default 100). The order is by creation time and id, so pages stay stable while new transfers are created. `status` and `q` (our additions) filter by state, and by text in the title or any file name (case-insensitive, matched literally); a cursor stays valid across filters.',
  scope: 'transfers:read',
  request: { query: TransferListQuerySchema },
  responses: { 200: json(TransferListSchema, 'A page of transfers') },
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export function registerListTransfers(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, cursorKey, config } = c.var.services;
    const { workspaceId } = c.var.caller;
    const { limit, cursor, status, q } = c.req.valid('query');
    const after = decodeCursor(cursorKey, 'transfers', workspaceId, cursor);
    const conditions: SQL[] = [eq(transfers.workspaceId, workspaceId)];
    if (after) {
      const [createdAt, id] = after;
      const at = new Date(String(createdAt));
      conditions.push(or(lt(transfers.createdAt, at), and(eq(transfers.createdAt, at), lt(transfers.id, String(id))))!);
    }
    if (status === 'draft') conditions.push(isNull(transfers.finalizedAt), eq(transfers.status, 'active'));
    else if (status === 'active') conditions.push(isNotNull(transfers.finalizedAt), eq(transfers.status, 'active'));
    else if (status) conditions.push(eq(transfers.status, status));
    if (q) {
      const pattern = `%${escapeLike(q)}%`;
      const fileNamed = db
        .select({ one: sql`1` })
        .from(transferFiles)
        .where(and(eq(transferFiles.transferId, transfers.id), eq(transferFiles.workspaceId, workspaceId), ilike(transferFiles.name, pattern)));
      conditions.push(or(ilike(sql`coalesce(${transfers.title}, '')`, pattern), exists(fileNamed))!);
    }
    const rows = await db
      .select()
      .from(transfers)
      .where(and(...conditions))
      .orderBy(...newestFirst)
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor(cursorKey, 'transfers', workspaceId, [last.createdAt.toISOString(), last.id]) : null;
    return c.json({ transfers: await loadSummaries(db, config.PUBLIC_URL, page), nextCursor }, 200);
  });
}
