import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase } from '../test/harness.js';
import { connect, type Database } from './connection.js';
import { preparedQuery } from './prepared.js';
import { workspaces } from './schema/index.js';

const nameOf = preparedQuery('test_workspace_name', (db, name) =>
  db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, sql.placeholder('id'))).prepare(name),
);

const workspace = (id: string, name: string) => ({ id, name, referralCode: `ref-${id}`, createdAt: new Date() });

describe('a prepared query', () => {
  const urls: string[] = [];
  let first: Database;
  let second: Database;

  beforeAll(async () => {
    urls.push(await createTestDatabase(), await createTestDatabase());
    first = connect(urls[0]!, 4);
    second = connect(urls[1]!, 4);
    await first.insert(workspaces).values(workspace('ws_a', 'in the first database'));
    await second.insert(workspaces).values(workspace('ws_a', 'in the second database'));
  });

  afterAll(async () => {
    await first.$client.end();
    await second.$client.end();
    for (const url of urls) await dropTestDatabase(url);
  });

  it('reads each database it is used with, though built once', async () => {
    expect(await nameOf(first).execute({ id: 'ws_a' })).toEqual([{ name: 'in the first database' }]);
    expect(await nameOf(second).execute({ id: 'ws_a' })).toEqual([{ name: 'in the second database' }]);
    expect(nameOf(first)).toBe(nameOf(first));
  });

  it('runs inside a transaction: it sees what the transaction wrote, and nothing of it once rolled back', async () => {
    const rollback = new Error('roll back');
    await expect(
      first.transaction(async (tx) => {
        await tx.insert(workspaces).values(workspace('ws_b', 'written in the transaction'));
        expect(await nameOf(tx as unknown as Database).execute({ id: 'ws_b' })).toEqual([{ name: 'written in the transaction' }]);
        // Not yet committed: another connection does not see it.
        expect(await nameOf(first).execute({ id: 'ws_b' })).toEqual([]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await nameOf(first).execute({ id: 'ws_b' })).toEqual([]);
  });

  it('refuses a second query of the same name', () => {
    expect(() => preparedQuery('test_workspace_name', (db, name) => db.select().from(workspaces).prepare(name))).toThrow(/two prepared queries/);
  });
});
