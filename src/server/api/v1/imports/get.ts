import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { resourceIdParam } from '../../../../contract/ids.js';
import { ImportStatusSchema } from '../../../../contract/transfers.js';
import type { AppEnv } from '../../../http/env.js';
import { importStatus } from '../../../imports/status.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const getImportRoute = v1Route({
  method: 'get',
  path: '/imports/{fileId}',
  operationId: 'getImport',
  tags: ['Transfers'],
  summary: 'Progress of a URL import',
  description: [
    'Where a URL import stands: the `fileId` of an `imports` entry in a create or add-files answer (transfers and collections alike). `status` goes `importing` → `ready` (the file is complete, with its CRC-32) or `failed` (with `error`, fit to show a person). `receivedBytes` is what storage has committed: it moves in steps of one storage part (32 MiB; the last part smaller), so poll every few seconds, not faster.',
    "The service fetches in the background: a dropped connection or an origin that stalls is retried (resuming with a ranged request when the origin supports it) a few times before the import fails; `error` holds the last reason while it is retried, and is absent while nothing went wrong (it is never null). `size` is null while unknown: no size was declared and the origin has not sent a `Content-Length` yet. A body longer or shorter than the declared `size` (or `Content-Length`), or over the plan's size ceiling, fails it. Any scope; another workspace's file is 404.",
  ].join('\n\n'),
  scope: 'any',
  request: { params: z.object({ fileId: resourceIdParam('fileId', 'fi', 'The `fileId` of an `imports` entry.', 'fi_8sK2mQ0vX1tB7nRw3LzP') }) },
  responses: {
    200: json(ImportStatusSchema, 'The import, flat (not wrapped)'),
    404: json(ErrorSchema, '`not_found`: no import of this workspace has this id (an uploaded file is not an import).'),
  },
});

export function registerGetImport(app: OpenAPIHono<AppEnv>) {
  app.openapi(getImportRoute, async (c) => c.json(await importStatus(c.var.services, c.var.caller, c.req.valid('param').fileId), 200));
}
