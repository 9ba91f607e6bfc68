import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionFileIdParamSchema, CommentListSchema, CommentResponseSchema, CreateCommentRequestSchema, ReviewResponseSchema, SetReviewRequestSchema } from '../../../../contract/collections.js';
import { commentAsCaller, listFileComments, reviewAsCaller } from '../../../collections/review.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

const REVIEW =
  'Our design (the spec shows no review): guests and members comment on each file of a collection (plain text, threaded by file) and decide a review state, `approved` or `changes_requested`; the latest decision is the file’s (`review` on CollectionFile, and `?review=` on the file list). Each decision emits `collection.file_reviewed`. Guests do the same on the collection’s page; the workspace is mailed about theirs as the collection’s `reviewMail` says. A file of another collection, or in the trash, is `404`.';

export const listFileCommentsRoute = v1Route({
  method: 'get',
  path: '/collections/{id}/files/{fileId}/comments',
  operationId: 'listCollectionFileComments',
  tags: ['Collections'],
  summary: 'List the comments on a file',
  description: `Every comment on the file, oldest first, with who wrote it (a member, a key or a guest, as they were then). ${REVIEW}`,
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionFileIdParamSchema },
  responses: { 200: json(CommentListSchema, 'The comments') },
});

export const addFileCommentRoute = v1Route({
  method: 'post',
  path: '/collections/{id}/files/{fileId}/comments',
  operationId: 'addCollectionFileComment',
  tags: ['Collections'],
  summary: 'Comment on a file',
  description: `Adds a comment (1 to 5000 characters of plain text; line breaks kept) as the caller: the member behind a dashboard or OAuth token, or the API key. ${REVIEW}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionFileIdParamSchema, ...jsonBody(CreateCommentRequestSchema) },
  responses: { 201: json(CommentResponseSchema, 'The comment') },
});

export const setFileReviewRoute = v1Route({
  method: 'put',
  path: '/collections/{id}/files/{fileId}/review',
  operationId: 'setCollectionFileReview',
  tags: ['Collections'],
  summary: 'Approve a file, ask for changes, or clear the decision',
  description: `Sets the file’s review state as the caller’s decision (\`null\` clears it) and emits \`collection.file_reviewed\`. ${REVIEW}`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionFileIdParamSchema, ...jsonBody(SetReviewRequestSchema) },
  responses: { 200: json(ReviewResponseSchema, 'The file’s review as it now is') },
});

export function registerCollectionReview(app: OpenAPIHono<AppEnv>) {
  app.openapi(listFileCommentsRoute, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json({ comments: await listFileComments(c.var.services, c.var.caller, id, fileId) }, 200);
  });
  app.openapi(addFileCommentRoute, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json({ comment: await commentAsCaller(c.var.services, c.var.caller, id, fileId, c.req.valid('json').body) }, 201);
  });
  app.openapi(setFileReviewRoute, async (c) => {
    const { id, fileId } = c.req.valid('param');
    return c.json({ review: await reviewAsCaller(c.var.services, c.var.caller, id, fileId, c.req.valid('json').state) }, 200);
  });
}
