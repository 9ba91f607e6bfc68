import { systemClock } from './core/clock.js';
import { ConfigError, loadConfig } from './config.js';
import { startWorker } from './assembly/worker.js';
import { createLogger } from './logger.js';
import { assembleServices, openDatabase } from './assembly/runtime.js';
import { openStorage, StorageUnavailableError } from './storage/create.js';

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
  const storage = await openStorage(config);
  const { url, db } = await openDatabase(config, log);
  const services = await assembleServices(config, { db, log, clock: systemClock, storage });
  const worker = await startWorker(services, url);
  log.info({ storage: services.storage.kind }, 'worker running');
  const stop = async () => {
    await worker.stop();
    await services.rateLimits.close();
    await services.mailer.close();
    await db.$client.end();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof StorageUnavailableError ? err.message : err);
  process.exit(1);
});
