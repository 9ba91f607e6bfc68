import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, asc, desc, eq, exists, ilike, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { TransferListQuerySchema, TransferListSchema, type transferListSorts } from '../../../../contract/transfers.js';
import { files, transfers } from '../../../db/schema/index.js';
import type { AppEnv } from '../../../http/env.js';
import { decodeCursor, encodeCursor } from '../../../http/pagination.js';
import { loadSummaries } from '../../../transfers/serialize.js';
import { v1Route } from '../route.js';
import { json } from './params.js';

const route = v1Route({
  method: 'get',
  path: '/transfers',
  operationId: 'listTransfers',
  tags: ['Transfers'],
  summary: 'List transfers',
  description:
    'Newest first, drafts included, paginated (`limit` 1 to 500, default 100). The order is by creation time and id, so pages stay stable while new transfers are created. `status` and `q` (our additions) filter by state, and by text in the title or any file name (case-insensitive, matched literally); a cursor stays valid across filters. `sort` (our addition) orders by size or expiry instead; a cursor is bound to its order.',
  scope: 'transfers:read',
  request: { query: TransferListQuerySchema },
  responses: { 200: json(TransferListSchema, 'A page of transfers') },
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

type TransferListSort = (typeof transferListSorts)[number];

/** The sum of a transfer's registered file sizes, as the summaries report it. */
const sizeOf = sql<string>`(select coalesce(sum(${files.sizeBytes}), 0) from ${files} where ${files.ownerKind} = 'transfer' and ${files.ownerId} = ${transfers.id})`;

/**
 * Each order: its key, its direction, and how the last row's key goes into the cursor and back.
 * Keyset pagination on (key, id), so a page never repeats or skips a row while others are added.
 */
const orders: Record<TransferListSort, { key: SQLWrapper; descending: boolean; read: (v: string | number) => SQL; list: string }> = {
  created: { key: transfers.createdAt, descending: true, read: (v) => sql`${String(v)}::timestamptz`, list: 'transfers' },
  size: { key: sizeOf, descending: true, read: (v) => sql`${Number(v)}::numeric`, list: 'transfers:size' },
  expiry: { key: transfers.expiresAt, descending: false, read: (v) => sql`${String(v)}::timestamptz`, list: 'transfers:expiry' },
};

export function registerListTransfers(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { db, cursorKey, config } = c.var.services;
    const { workspaceId } = c.var.caller;
    const { limit, cursor, status, q, sort = 'created' } = c.req.valid('query');
    const order = orders[sort];
    const after = decodeCursor(cursorKey, order.list, workspaceId, cursor);
    const conditions: SQL[] = [eq(transfers.workspaceId, workspaceId)];
    if (after) {
      const [value, id] = after;
      // A row comparison: past the last row in the order's direction, ties broken by id the same way.
      conditions.push(sql`(${order.key}, ${transfers.id}) ${sql.raw(order.descending ? '<' : '>')} (${order.read(value!)}, ${String(id)})`);
    }
    if (status === 'draft') conditions.push(isNull(transfers.finalizedAt), eq(transfers.status, 'active'));
    else if (status === 'sent') conditions.push(isNotNull(transfers.finalizedAt));
    else if (status === 'active') conditions.push(isNotNull(transfers.finalizedAt), eq(transfers.status, 'active'));
    else if (status) conditions.push(eq(transfers.status, status));
    if (q) {
      const pattern = `%${escapeLike(q)}%`;
      const fileNamed = db
        .select({ one: sql`1` })
        .from(files)
        .where(and(eq(files.ownerKind, 'transfer'), eq(files.ownerId, transfers.id), eq(files.workspaceId, workspaceId), ilike(files.name, pattern)));
      conditions.push(or(ilike(sql`coalesce(${transfers.title}, '')`, pattern), exists(fileNamed))!);
    }
    const direction = order.descending ? desc : asc;
    const rows = await db
      .select({ t: transfers, key: sql<string | Date>`${order.key}` })
      .from(transfers)
      .where(and(...conditions))
      .orderBy(direction(order.key), direction(transfers.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const position = (key: string | Date) => (key instanceof Date ? key.toISOString() : sort === 'size' ? Number(key) : new Date(key).toISOString());
    const nextCursor = rows.length > limit && last ? encodeCursor(cursorKey, order.list, workspaceId, [position(last.key), last.t.id]) : null;
    return c.json({ transfers: await loadSummaries(db, config.PUBLIC_URL, page.map((r) => r.t)), nextCursor }, 200);
  });
}
