import { z } from '@hono/zod-openapi';

export * from './error-codes.js';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ description: 'Stable machine-readable code.', example: 'invalid_request' }),
      message: z.string().openapi({ description: 'A sentence for people: in the language the request asks for in `Accept-Language` when the service writes it (en, de, fr, es, it, nl, pt-BR, pl, ja, ar; the answer says which in `Content-Language`), else English. Programs read `code` and `details`, which are the same in every language.', example: 'limit must be between 1 and 500' }),
      details: z
        .record(z.string(), z.unknown())
        .openapi({
          description:
            'Structured context. Validation errors carry `fields`: an array of `{ path, message }`, `path` being the dotted location of the offending field.',
          example: { fields: [{ path: 'limit', message: 'Too big: expected number to be <=500' }] },
        }),
      docs: z.url().openapi({ description: 'Link to the page that explains this code.', example: 'http://localhost:8080/docs/errors#invalid_request' }),
    }),
  })
  .openapi('Error');

export type ErrorBody = z.infer<typeof ErrorSchema>;
