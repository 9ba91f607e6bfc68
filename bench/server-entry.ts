import { loadConfig } from '../src/server/config.js';
import { createLogger } from '../src/server/logger.js';
import { startServer } from '../src/server/assembly/runtime.js';

/**
 * The server as `npm start` runs it (src/server/main.ts: configuration from the environment, the
 * in-process worker unless RUN_WORKER=0), started in a child process by a benchmark so that its
 * memory is measured apart from the client's. BENCH_STATIC_DIR serves a dashboard built by the
 * benchmark itself, so a concurrent `vite build` of dist/app cannot change it mid-run.
 */
const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const server = await startServer(config, { log, staticDir: process.env.BENCH_STATIC_DIR || undefined });
console.log(`ready ${server.url}`);

const shutdown = () => {
  server.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

// Started with --expose-gc, a benchmark can ask (SIGUSR2) for the live heap after a full collection:
// what tells a leak from a heap V8 merely has not shrunk, which RSS alone cannot.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  process.on('SIGUSR2', () => {
    gc();
    console.log(`heap-after-gc ${JSON.stringify(process.memoryUsage())}`);
  });
}
