import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from './db/embedded.js';
import { createLogger } from './logger.js';
import { startServer } from './assembly/runtime.js';
import { StorageUnavailableError } from './storage/create.js';

/** `npm start`: the API, the dashboard, the public pages and the in-process worker in one process. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  const log = createLogger(config.LOG_LEVEL);
  let server;
  try {
    server = await startServer(config, { log });
  } catch (err) {
    // A setting that names nothing usable (S3_BUCKET without such a bucket) ends the start like a malformed one.
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    if (err instanceof DataDirInUseError || err instanceof StorageUnavailableError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  log.info({ url: config.PUBLIC_URL, dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR }, 'listening');
  console.log(`\n  Parcel is running at ${config.PUBLIC_URL}  (listening on ${server.url})\n`);

  const shutdown = (signal: string) => {
    log.info({ signal }, 'shutting down');
    const hard = setTimeout(() => process.exit(1), 30_000);
    hard.unref();
    server.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a process group signalled twice (a supervisor and its wrapper) must not have
  // the second signal kill the process halfway through closing. Closing is idempotent.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
