import { z } from '@hono/zod-openapi';

export const TransferIdParams = z.object({
  id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' }, description: 'Transfer id (never the slug).', example: 'tr_2bX9qLm4Vt0cR7sK1wNz' }),
});

export const TransferFileParams = TransferIdParams.extend({
  fileId: z.string().min(1).max(64).openapi({ param: { name: 'fileId', in: 'path' }, description: 'File id from the upload target.', example: 'fi_8sK2mQ0vX1tB7nRw3LzP' }),
});

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});
