import { ActivityFilterSchema, ActivityPageSchema, ActivityQuerySchema } from '../../contract/activity.js';
import { activityCsv, listActivity } from '../activity/activity.js';
import type { DashboardSurface } from './routes.js';

/** Lines of text as a byte stream, pulled one at a time: the export is never held whole. */
function textStream(lines: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}

/** /api/dashboard/activity: the workspace's activity log, for its owner and admins. */
export function activityRoutes(surface: DashboardSurface) {
  surface
    .route(
      {
        method: 'get',
        path: '/',
        auth: 'admin',
        summary: 'Who did what: newest first, a page at a time, by person or key and by kind',
        description: `Kept \`ACTIVITY_RETENTION_DAYS\` (365 by default). Names are as they were when it happened. 403 for a member.`,
        query: ActivityQuerySchema,
        success: { status: 200, schema: ActivityPageSchema },
      },
      async (c, { query }) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await listActivity(c.var.services, c.var.user, query));
      },
    )
    .route(
      {
        method: 'get',
        path: '/export',
        auth: 'admin',
        summary: 'The activity log (or its filtered part) as CSV',
        description:
          'Columns: time, kind, actor_type, actor_id, actor, actor_email, subject_type, subject_id, subject, detail (JSON). A cell starting with `=`, `+`, `-` or `@` gets a leading `\'` so a spreadsheet never runs it.',
        query: ActivityFilterSchema,
        success: { status: 200, description: 'text/csv, UTF-8, CRLF line ends.' },
      },
      async (c, { query }) => {
        const lines = activityCsv(c.var.services, c.var.user, query);
        const day = c.var.services.clock.now().toISOString().slice(0, 10);
        return new Response(textStream(lines), {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': `attachment; filename="activity-${day}.csv"`,
            'Cache-Control': 'no-store',
          },
        });
      },
    );
}
