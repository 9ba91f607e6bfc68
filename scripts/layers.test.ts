import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.config.js that keep the layers (docs/architecture.md): each planted
 * import below is linted as if it were a file at `path`, and must be refused (or allowed) by the
 * project's own configuration.
 */

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function importErrors(path: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const y = x;\n`, { filePath: path });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const refused: [string, string, RegExp][] = [
  ['src/server/transfers/planted.ts', '../collections/collections.js', /Owners are equals/],
  ['src/server/collections/requests/planted.ts', '../../transfers/drafts.js', /Owners are equals/],
  ['src/server/vault/planted.ts', '../webhooks/fanout.js', /Owners are equals/],
  ['src/server/collections/planted.ts', '../http/validate.js', /know nothing of HTTP/],
  ['src/server/webhooks/planted.ts', '../api/v1/route.js', /know nothing of HTTP/],
  ['src/server/uploads/planted.ts', '../transfers/drafts.js', /file engine knows no owner/],
  ['src/server/sharing/planted.ts', '../collections/access.js', /file engine knows no owner/],
  ['src/server/downloads/planted.ts', '../imports/importer.js', /file engine knows no owner/],
  ['src/server/imports/planted.ts', '../transfers/send.js', /importer knows no owner/],
  ['src/server/core/planted.ts', '../db/connection.js', /core imports only the contract/],
  ['src/app/features/vault/planted.ts', '../../collections/utils/folder-tree', /through its index\.ts/],
  ['src/app/features/send/planted.ts', '../../../server/db/connection', /server/],
];

const allowed: [string, string][] = [
  ['src/server/transfers/planted.ts', '../uploads/register.js'],
  ['src/server/collections/planted.ts', '../sharing/unlock.js'],
  ['src/server/collections/planted.ts', './requests/requests.js'],
  ['src/server/imports/planted.ts', '../uploads/crc.js'],
  ['src/server/api/v1/planted.ts', '../../transfers/drafts.js'],
  ['src/app/features/vault/planted.ts', '../collections'],
];

describe('the layer rules', () => {
  it.each(refused)('refuse %s importing %s', async (path, from, message) => {
    const errors = await importErrors(path, from);
    expect(errors, `${path} importing ${from}`).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each(allowed)('allow %s importing %s', async (path, from) => {
    expect(await importErrors(path, from)).toEqual([]);
  });
});
