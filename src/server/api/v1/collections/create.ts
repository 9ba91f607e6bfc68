import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionResponseSchema, CreateCollectionRequestSchema } from '../../../../contract/collections.js';
import { createCollection } from '../../../collections/collections.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const createCollectionRoute = v1Route({
  method: 'post',
  path: '/collections',
  operationId: 'createCollection',
  tags: ['Collections'],
  summary: 'Create a collection',
  description:
    'A new, empty collection with an unguessable secret link (`url`). `visibility` defaults to `private` (only invited guests); `password` needs a `password`, stored only as a hash and never returned (our design: the spec does not show this operation).',
  scope: 'collections:write',
  paidOnly: true,
  request: jsonBody(CreateCollectionRequestSchema),
  responses: { 201: json(CollectionResponseSchema, 'The new collection') },
});

export function registerCreateCollection(app: OpenAPIHono<AppEnv>) {
  app.openapi(createCollectionRoute, async (c) => {
    return c.json(
      {
        collection: await createCollection(c.var.services, c.var.caller, c.req.valid('json')),
      },
      201,
    );
  });
}
