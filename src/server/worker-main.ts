import path from 'node:path';
import { systemClock } from './core/clock.js';
import { ConfigError, loadConfig } from './config.js';
import { startWorker } from './jobs/worker.js';
import { createLogger } from './logger.js';
import { createMailer } from './mail/mailer.js';
import { MemoryRateLimitStore, RedisRateLimitStore } from './ratelimit/store.js';
import { openDatabase } from './runtime.js';
import { DiskStorage } from './storage/storage.js';
import { serverKeys } from './settings.js';

/**
 * `npm run worker`: background jobs only, for deployments that run web instances with
 * RUN_WORKER=0. Needs DATABASE_URL (an embedded database belongs to the server that started it).
 */
async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  if (!config.DATABASE_URL) {
    throw new ConfigError('DATABASE_URL: a separate worker needs the same external PostgreSQL as the web instances');
  }
  const { url, db } = await openDatabase(config, log);
  const rateLimits = config.REDIS_URL ? RedisRateLimitStore.connect(config.REDIS_URL) : new MemoryRateLimitStore();
  const storage = new DiskStorage(path.join(config.DATA_DIR, 'files'));
  const services = { config, db, clock: systemClock, log, rateLimits, storage, mailer: createMailer(config, log), ...(await serverKeys(db, config)) };
  const worker = await startWorker(services, url);
  log.info('worker running');
  const stop = async () => {
    await worker.stop();
    await rateLimits.close();
    await services.mailer.close();
    await db.$client.end();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
