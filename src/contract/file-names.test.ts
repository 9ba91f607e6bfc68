import { describe, expect, it } from 'vitest';
import type { z } from '@hono/zod-openapi';
import { AddCollectionFilesRequestSchema, CreateFolderRequestSchema, UpdateCollectionFileRequestSchema, UpdateFolderRequestSchema } from './collections.js';
import { AddSubmissionFilesRequestSchema, StartSubmissionRequestSchema } from './public-requests.js';
import { AddFilesRequestSchema, CreateTransferRequestSchema } from './transfers.js';

/** Every field that takes a file or folder name, with a body that is valid but for that name. */
const nameFields: [string, z.ZodType, (name: string) => unknown, string][] = [
  ['transfer file', CreateTransferRequestSchema, (name) => ({ files: [{ name, size: 1 }] }), 'files.0.name'],
  ['added transfer file', AddFilesRequestSchema, (name) => ({ files: [{ name, size: 1 }] }), 'files.0.name'],
  ['transfer import', CreateTransferRequestSchema, (name) => ({ imports: [{ url: 'https://example.com/a', name }] }), 'imports.0.name'],
  ['collection file', AddCollectionFilesRequestSchema, (name) => ({ files: [{ name, size: 1 }] }), 'files.0.name'],
  ['collection import', AddCollectionFilesRequestSchema, (name) => ({ imports: [{ url: 'https://example.com/a', name }] }), 'imports.0.name'],
  ['renamed collection file', UpdateCollectionFileRequestSchema, (name) => ({ name }), 'name'],
  ['new folder', CreateFolderRequestSchema, (name) => ({ name }), 'name'],
  ['renamed folder', UpdateFolderRequestSchema, (name) => ({ name }), 'name'],
  ['submission file', StartSubmissionRequestSchema, (name) => ({ name: 'Ada', files: [{ name, size: 1 }] }), 'files.0.name'],
  ['added submission file', AddSubmissionFilesRequestSchema, (name) => ({ files: [{ name, size: 1 }] }), 'files.0.name'],
];

describe('file and folder names', () => {
  describe.each(nameFields)('of a %s', (_, schema, body, field) => {
    it.each(['.', '..', ' .. ', '\u202E..'])('refuse %j, naming the field', (name) => {
      const result = schema.safeParse(body(name));
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([field]);
      expect(result.error?.issues[0]?.message).toBe('name must not be "." or ".."');
    });

    it.each(['...', '.env', 'a..b', 'report.pdf'])('take %j', (name) => {
      expect(schema.safeParse(body(name)).success).toBe(true);
    });
  });
});
