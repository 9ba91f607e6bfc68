import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { runMigrations } from '../db/connection.js';
import { startEmbeddedDatabase } from '../db/embedded.js';
import { createLogger } from '../logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection URL to the test PostgreSQL server's maintenance database. */
    databaseAdminUrl: string;
    /** A migrated database that each test server clones. */
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL for the whole run: the external one when DATABASE_URL is set (the scale-out
 * configuration), otherwise an embedded one under the temp directory, exactly as `npm start` runs it.
 */
export default async function setup(project: TestProject) {
  const log = createLogger('warn');
  let adminUrl: string;
  let stopEmbedded: (() => Promise<void>) | null = null;
  let dataDir: string | null = null;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-test-db-'));
    const embedded = await startEmbeddedDatabase(dataDir, log);
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const template = `parcel_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  await runMigrations(templateUrl.toString());
  await admin.end();

  project.provide('databaseAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await c.end();
    await stopEmbedded?.();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}
