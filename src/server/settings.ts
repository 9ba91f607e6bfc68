import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { deriveKey } from './auth/sealing.js';
import type { Config } from './config.js';
import type { Database } from './db/connection.js';
import { serverSettings } from './db/schema/index.js';

/** A random secret created once and shared by every instance on the same database. */
export async function sharedSecret(db: Database, name: string): Promise<Buffer> {
  await db
    .insert(serverSettings)
    .values({ key: name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, name));
  if (!row) throw new Error(`server setting ${name} missing`);
  return Buffer.from(row.value, 'base64url');
}

/** The keys every instance must share: from the database, or from SERVER_SECRET where the operator set one. */
export async function serverKeys(db: Database, config: Pick<Config, 'SERVER_SECRET'>) {
  const sealingMaterial = config.SERVER_SECRET ? Buffer.from(config.SERVER_SECRET, 'utf8') : await sharedSecret(db, 'sealing-key');
  return {
    cursorKey: await sharedSecret(db, 'cursor-key'),
    sealingKey: deriveKey(sealingMaterial, 'idempotent-responses'),
    webhookSecretKey: deriveKey(sealingMaterial, 'webhook-signing-secrets'),
  };
}

export async function databaseIsEmpty(db: Database): Promise<boolean> {
  const res = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM workspaces`);
  return (res.rows[0]?.n ?? 0) === 0;
}
