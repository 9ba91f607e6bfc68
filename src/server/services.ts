import type { Clock } from './core/clock.js';
import type { Config } from './config.js';
import type { Database } from './db/connection.js';
import type { FileOwners } from './files/owners.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail/mailer.js';
import type { SafeRequestDeps } from './net/safe-request.js';
import type { RateLimitStore } from './ratelimit/store.js';
import type { FileStorage } from './storage/storage.js';

/**
 * Everything a request handler may touch, handed in through the request context rather than
 * module singletons, so that a test can give each server its own database and clock.
 */
export interface Services {
  config: Config;
  db: Database;
  clock: Clock;
  log: Logger;
  rateLimits: RateLimitStore;
  /** Outgoing mail: SMTP when SMTP_URL is set, otherwise .eml files under DATA_DIR/mail. */
  mailer: Mailer;
  storage: FileStorage;
  /** What owns files (transfers, and next collections, upload requests, the vault): the file engine asks them. */
  owners: FileOwners;
  /** Signs pagination cursors; shared by every instance through the database. */
  cursorKey: Buffer;
  /** Seals remembered idempotent responses (they can carry secrets shown once); see auth/sealing.ts. */
  sealingKey: Buffer;
  /** Seals webhook signing secrets at rest (webhooks/signing.ts); derived from the same material. */
  webhookSecretKey: Buffer;
  /**
   * How outbound requests (webhook deliveries, URL checks) resolve names and open sockets.
   * Absent in production (the real DNS and network); tests inject both to prove the SSRF guard
   * without ever sending traffic.
   */
  outbound?: SafeRequestDeps;
}
