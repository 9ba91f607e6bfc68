import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve, type HttpBindings, type Http2Bindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { MemoryLocker, type Locker } from '@tus/server';
import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import { connect, runMigrations } from '../db/connection.js';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded.js';
import { createApp } from './app.js';
import { PgLocker } from '../uploads/pg-locker.js';
import { answerClientError } from '../http/client-error.js';
import { startWorker, type Worker } from './worker.js';
import { createLogger, type Logger } from '../logger.js';
import { createMailer } from '../mail/mailer.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../ratelimit/store.js';
import type { SafeRequestDeps } from '../net/safe-request.js';
import type { Services } from '../services.js';
import { openStorage } from '../storage/create.js';
import type { FileStorage } from '../storage/storage.js';
import { fileOwners } from './owners.js';
import type { Database } from '../db/connection.js';
import { serverKeys } from '../settings.js';
import { sealPlainSigningSecrets } from '../webhooks/signing.js';

export interface RunningServer {
  url: string;
  port: number;
  services: Services;
  /** Stops taking requests, lets in-flight ones finish, then closes the worker and the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  log?: Logger;
  staticDir?: string;
  /** The server render of the public pages (AppOptions.serverRenderEntry). */
  serverRenderEntry?: string;
  /** Tests hand in a prepared database instead of the embedded one. */
  databaseUrl?: string;
  rateLimits?: RateLimitStore;
  /** Tests inject name resolution and socket creation for outbound requests (see Services.outbound). */
  outbound?: SafeRequestDeps;
}

/** Resolves the database: an external one from DATABASE_URL, or PostgreSQL started under DATA_DIR. */
export async function openDatabase(config: Config, log: Logger, override?: string) {
  let embedded: EmbeddedDatabase | null = null;
  let url = override ?? config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase(config.DATA_DIR, log);
    url = embedded.url;
  }
  await runMigrations(url);
  return { url, db: connect(url), embedded };
}

/**
 * Everything handlers and jobs use, for a web instance and for the worker alike: the storage
 * (checked before anything listens; opened first by whoever starts, see openStorage), rate
 * limits, mail, the owners of files, the server keys.
 */
export async function assembleServices(
  config: Config,
  base: { db: Database; log: Logger; clock: Clock; storage?: FileStorage; rateLimits?: RateLimitStore; outbound?: SafeRequestDeps },
): Promise<Services> {
  const storage = base.storage ?? (await openStorage(config));
  const rateLimits = base.rateLimits ?? (config.REDIS_URL ? RedisRateLimitStore.connect(config.REDIS_URL) : new MemoryRateLimitStore());
  const keys = await serverKeys(base.db, config);
  // Secrets stored before they were sealed at rest are sealed now (a no-op once done).
  await sealPlainSigningSecrets(base.db, keys.webhookSecretKey);
  return {
    config,
    db: base.db,
    clock: base.clock,
    log: base.log,
    rateLimits,
    storage,
    owners: fileOwners(),
    mailer: createMailer(config, base.log, base.clock),
    ...keys,
    outbound: base.outbound,
  };
}

/**
 * Hono answers HEAD by running the GET route and rebuilding its Response, which turns a route's
 * RESPONSE_ALREADY_SENT (it wrote the Node response itself: the OAuth provider, previews) into an
 * ordinary response that @hono/node-server then tries to write a second time. A response whose
 * headers are out has been answered.
 */
function answerOnce(fetch: (req: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>) {
  return async (req: Request, env: HttpBindings | Http2Bindings) => {
    const res = await fetch(req, env);
    return env.outgoing.headersSent ? RESPONSE_ALREADY_SENT : res;
  };
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const clock = options.clock ?? systemClock;
  // Like a malformed setting, a bucket that cannot be used stops the start before the database does.
  const storage = await openStorage(config);
  const { url: databaseUrl, db, embedded } = await openDatabase(config, log, options.databaseUrl);
  let services: Services;
  try {
    services = await assembleServices(config, { db, log, clock, storage, rateLimits: options.rateLimits, outbound: options.outbound });
  } catch (err) {
    await db.$client.end();
    await embedded?.stop();
    throw err;
  }
  const { rateLimits } = services;

  let worker: Worker | null = null;
  if (config.RUN_WORKER === '1') worker = await startWorker(services, databaseUrl);

  let draining = false;
  // An embedded database belongs to this one process, so its uploads' locks can live in memory; on an
  // external PostgreSQL other instances may take the same upload, and the lock is PostgreSQL's.
  const pgLocker = embedded ? null : new PgLocker({ connectionString: databaseUrl });
  const uploadLocker: Locker = pgLocker ?? new MemoryLocker();
  const app = createApp(services, { staticDir: options.staticDir, serverRenderEntry: options.serverRenderEntry, isDraining: () => draining, uploadLocker });
  const server = await new Promise<Server>((resolve) => {
    // No limit on a whole request: one tus PATCH of a large file runs as long as the upload does
    // (Node's default cuts it at five minutes with a 408). Slow headers are still cut (headersTimeout).
    const s = serve({ fetch: answerOnce(app.fetch), port: config.PORT, hostname: config.HOST, serverOptions: { requestTimeout: 0 } }, () => resolve(s as Server));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, config.PUBLIC_URL));
  const port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      // In-flight requests finish; idle keep-alive connections are closed at once.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(forced);
      await worker?.stop().catch((err) => log.error({ err }, 'worker stop failed'));
      await pgLocker?.close();
      await rateLimits.close().catch(() => undefined);
      await services.mailer.close().catch(() => undefined);
      await db.$client.end();
      await embedded?.stop();
    })());

  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, services, close };
}
