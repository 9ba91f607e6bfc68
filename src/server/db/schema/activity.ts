import { bigserial, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { ActivityActor, ActivityKind } from '../../../contract/activity.js';
import { ts } from './columns.js';
import { workspaces } from './accounts.js';

/**
 * The activity log (contract/activity.ts): one row per thing done, written in the transaction that
 * did it. Names are copied, not joined, so the record reads as it was then; no foreign key holds a
 * person or key, so removing either leaves the history whole. Swept after ACTIVITY_RETENTION_DAYS.
 */
export const activity = pgTable(
  'activity',
  {
    id: text('id').primaryKey(),
    /** The order entries were written in: the log's order and its cursor (many can share one instant). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    kind: text('kind').$type<ActivityKind>().notNull(),
    actorType: text('actor_type').$type<ActivityActor['type']>().notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email'),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    subjectName: text('subject_name'),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>().notNull(),
  },
  (t) => [
    index('activity_workspace_seq_idx').on(t.workspaceId, t.seq),
    index('activity_workspace_actor_idx').on(t.workspaceId, t.actorId, t.seq),
    index('activity_at_idx').on(t.at),
  ],
);
