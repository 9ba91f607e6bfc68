import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionListSchema } from '../../../../contract/collections.js';
import { listCollections } from '../../../collections/collections.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json } from '../transfers/params.js';

export const listCollectionsRoute = v1Route({
  method: 'get',
  path: '/collections',
  operationId: 'listCollections',
  tags: ['Collections'],
  summary: 'List collections',
  description:
    'Every collection of the workspace in one response, most recently updated first, each with its file count and total size (our design: the spec does not show this operation).',
  scope: 'collections:read',
  paidOnly: true,
  responses: { 200: json(CollectionListSchema, 'The collections') },
});

export function registerListCollections(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCollectionsRoute, async (c) => {
    return c.json({ collections: await listCollections(c.var.services, c.var.caller) }, 200);
  });
}
