import { z } from '@hono/zod-openapi';
import { resourceIdParam } from '../../../../contract/ids.js';

export const TransferIdParams = z.object({
  id: resourceIdParam('id', 'tr', 'Transfer id (never the slug).', 'tr_2bX9qLm4Vt0cR7sK1wNz'),
});

export const TransferFileParams = TransferIdParams.extend({
  fileId: resourceIdParam('fileId', 'fi', 'File id from the upload target.', 'fi_8sK2mQ0vX1tB7nRw3LzP'),
});

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

