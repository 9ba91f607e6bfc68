import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/**
 * What a statement inside a transaction is run on: the transaction (or the database itself, for a
 * caller that needs no transaction). The one name for it, so every operation takes the same type.
 */
export type Tx = Pick<Database, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export function connect(url: string, max = 20): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return drizzle(pool, { schema }) as Database;
}

/** Runs pending migrations under an advisory lock, so instances starting together migrate once. */
export async function runMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
    await client.end();
  }
}
