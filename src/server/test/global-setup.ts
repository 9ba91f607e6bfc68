import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { runMigrations } from '../db/connection.js';
import { startEmbeddedDatabase } from '../db/embedded.js';
import { createLogger } from '../logger.js';
import { startTestS3 } from './s3-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection URL to the test PostgreSQL server's maintenance database. */
    databaseAdminUrl: string;
    /** A migrated database that each test server clones. */
    templateDatabase: string;
    /** With TEST_S3=1: an S3-compatible server on loopback, where each test server makes its own bucket. */
    s3: { endpoint: string; accessKeyId: string; secretAccessKey: string } | null;
  }
}

/**
 * One PostgreSQL for the whole run: the external one when DATABASE_URL is set (the scale-out
 * configuration), otherwise an embedded one under the temp directory, exactly as `npm start` runs it.
 * With TEST_S3=1 (the scale-out run), files go to an S3-compatible server started here.
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
  const s3 = process.env.TEST_S3 === '1' ? await startTestS3() : null;
  project.provide('s3', s3 ? { endpoint: s3.endpoint, ...s3.credentials } : null);

  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await c.end();
    await s3?.stop();
    await stopEmbedded?.();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}
