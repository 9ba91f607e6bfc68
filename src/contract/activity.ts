import { z } from '@hono/zod-openapi';
import { activityKinds } from './activity-kinds.js';
import { cursorParam, limitParam, NextCursorSchema } from './pagination.js';

/**
 * The workspace's activity log (issue 35, docs/teams.md): who did what, for its owner and admins,
 * under /api/dashboard/activity. An entry is a record of the moment: the actor's and the subject's
 * names are kept as they were then, so a renamed member or a deleted key still reads as it did.
 * It never holds a secret: no token, key, password or signing secret is ever written to it.
 */

export { activityKinds };

export const ActivityKindSchema = z.enum(activityKinds, { error: `kind must be one of: ${activityKinds.join(', ')}` });
export type ActivityKind = z.infer<typeof ActivityKindSchema>;

/** Who acted: a member (by session, dashboard token or app), an API key, the server's operator, or the server itself (a schedule). */
export const ActivityActorSchema = z.object({
  type: z.enum(['member', 'api_key', 'operator', 'system']),
  /** `usr_…` or `key_…`; null for the operator's command line and the server. */
  id: z.string().nullable(),
  /** The member's name (or address), the key's name, as they were then. */
  name: z.string(),
  email: z.string().nullable(),
});
export type ActivityActor = z.infer<typeof ActivityActorSchema>;

export const ActivitySubjectSchema = z.object({
  /** What was acted on: `member`, `invitation`, `api_key`, `webhook`, `transfer`, `collection`, `upload_request`, `workspace`. */
  type: z.string(),
  id: z.string().nullable(),
  /** Its name then: a transfer's title, an invited address, a key's name, a webhook's URL. */
  name: z.string().nullable(),
});

export const ActivityEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  kind: ActivityKindSchema,
  actor: ActivityActorSchema,
  subject: ActivitySubjectSchema.nullable(),
  /** The particulars: a role before and after, a plan, a visibility, how many recipients. Never a secret. */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

export const ActivityFilterSchema = z.object({
  /** One person (`usr_…`) or API key (`key_…`). */
  actor: z
    .string()
    .regex(/^(usr|key)_[0-9A-Za-z]{1,60}$/, { error: 'actor must be a member id (usr_…) or an API key id (key_…)' })
    .optional()
    .openapi({ param: { name: 'actor', in: 'query' }, description: 'Only what this member (`usr_…`) or API key (`key_…`) did.' }),
  kind: ActivityKindSchema.optional().openapi({ param: { name: 'kind', in: 'query' }, description: 'Only entries of this kind.' }),
});

export const ActivityQuerySchema = ActivityFilterSchema.extend({ cursor: cursorParam, limit: limitParam(100, 50) });

export const ActivityPageSchema = z.object({
  entries: z.array(ActivityEntrySchema),
  nextCursor: NextCursorSchema,
  /** How long entries are kept (`ACTIVITY_RETENTION_DAYS`). */
  retentionDays: z.number().int(),
});
export type ActivityPage = z.output<typeof ActivityPageSchema>;
