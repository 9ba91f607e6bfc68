import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting the server reads from its environment, validated once at start.
 * A bad value stops the server with a message that names the variable.
 */
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

/** An http(s) origin (scheme, host, port: no path, query or credentials), as browsers send it in `Origin`. */
const webOrigin = (name: string) =>
  z
    .url({ protocol: /^https?$/ })
    .refine((u) => {
      const url = new URL(u);
      return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    }, { error: `${name} takes origins only (such as https://example.com:8443): scheme, host and port, no path` })
    .transform((u) => new URL(u).origin);

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SERVER_SECRET: z.string().min(32, { error: 'SERVER_SECRET must be at least 32 characters' }).optional(),
  MAIL_FROM: z.string().min(3).default('Parcel <no-reply@localhost>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: flag,
  RUN_WORKER: z.enum(['0', '1']).default('1'),
  SIGNUP: z.enum(['open', 'invite', 'closed']).default('open'),
  DEFAULT_PLAN: z.enum(['free', 'paid']).default('free'),
  /**
   * `off` for a server that bills nobody: every workspace has the paid plan's features, and there is
   * no prepaid credit, upload price, free monthly call allowance, referral months or plan to show.
   */
  BILLING: z.enum(['on', 'off']).default('on'),
  SESSION_TTL_SECONDS: positiveInt(60 * 60 * 24 * 30),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(15 * 60),
  /** How long an OAuth access token (an AI assistant's) lives; its refresh token gets it another. */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt(60 * 60),
  /** RFC 7591 dynamic client registration, for MCP clients that predate client ID metadata documents. */
  OAUTH_DYNAMIC_REGISTRATION: z.enum(['0', '1']).default('1'),
  /** Development and tests only: an assistant's client ID metadata document may be served from loopback (still https). Never other private addresses. */
  OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: flag,
  /** Development and tests only: single sign-on may use an identity provider over plain http on loopback. Never other private addresses. */
  SSO_ALLOW_INSECURE: flag,
  /**
   * Web origins besides this server's own whose pages may call /mcp from a browser (comma-separated,
   * such as `https://inspector.example.com`). None by default: DNS-rebinding protection refuses every
   * other `Origin`; clients that send none (assistants' apps, command lines) are unaffected.
   */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(webOrigin('MCP_ALLOWED_ORIGINS'))),
  UPLOAD_TOKEN_TTL_SECONDS: positiveInt(2 * 60 * 60),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: positiveInt(60),
  RATE_LIMIT_SUBMISSIONS_PER_HOUR: positiveInt(20),
  RATE_LIMIT_KEY_PER_MINUTE: positiveInt(600),
  RATE_LIMIT_WORKSPACE_PER_DAY: positiveInt(100_000),
  FREE_MONTHLY_CALLS: positiveInt(50_000),
  PAID_MONTHLY_CALLS: z.coerce.number().int().min(0).default(0),
  /** Members a free workspace may hold, its owner and open invitations included; 0 for no limit. */
  FREE_MAX_MEMBERS: z.coerce.number().int().min(0).default(1),
  /** The same for a paid workspace; 0 (the default) for no limit. With `BILLING=off` no limit applies. */
  PAID_MAX_MEMBERS: z.coerce.number().int().min(0).default(0),
  /** Days the activity log keeps an entry; older ones are swept every ten minutes. */
  ACTIVITY_RETENTION_DAYS: positiveInt(365),
  /** Days a deleted collection file or folder stays in its collection's trash before the sweep purges it and its bytes. */
  TRASH_RETENTION_DAYS: positiveInt(30),
  SIGNIN_ATTEMPTS_PER_15_MINUTES: positiveInt(10),
  /** When a workspace that signed up through another's link counts for it: once it has ever taken a paid plan, or at sign-up. */
  REFERRAL_EARNS_ON: z.enum(['paid', 'signup']).default('paid'),
  /** Free months per counted referral; 0 turns earning off, and the link only invites. */
  REFERRAL_FREE_MONTHS: z.coerce.number().int().min(0).max(120).default(1),
  /** The most free months one workspace can earn from referrals, in total. */
  REFERRAL_MAX_FREE_MONTHS: z.coerce.number().int().min(0).max(1200).default(12),
  FREE_UPLOAD_BYTES_PER_MONTH: positiveInt(10 * 1000 ** 3),
  UPLOAD_PRICE_EUR_PER_GB: z.coerce.number().positive().default(0.02),
  FREE_TRANSFER_MAX_BYTES: positiveInt(5 * 1000 ** 3),
  PAID_TRANSFER_MAX_BYTES: positiveInt(250 * 1000 ** 3),
  FREE_TRANSFER_EXPIRY_DAYS: positiveInt(7),
  PAID_TRANSFER_DEFAULT_EXPIRY_DAYS: positiveInt(14),
  PAID_TRANSFER_MAX_EXPIRY_DAYS: positiveInt(365),
  PAID_TRANSFER_MIN_EXPIRY_SECONDS: positiveInt(3600),
  /** Ciphertext one user's vault may hold on the free plan; unfinished uploads count at their registered size. */
  VAULT_FREE_BYTES: positiveInt(2 * 1000 ** 3),
  /** The same on a paid plan. */
  VAULT_PAID_BYTES: positiveInt(250 * 1000 ** 3),
  /** Development and tests only: lets webhooks use http and loopback receivers. Never other private addresses. */
  WEBHOOKS_ALLOW_INSECURE: flag,
  /** Seconds between a failed delivery attempt and the next one; one retry per entry. */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, { error: 'a comma-separated list of whole seconds, such as 60,300,1800' })
    .default('60,300,1800,7200,21600,43200,86400')
    .transform((v) => v.split(',').map((s) => Number(s.trim())))
    .refine((list) => list.every((n) => n > 0), { error: 'every delay must be at least one second' }),
  /** Total time one delivery attempt may take: DNS, connect, TLS, request and the whole answer. */
  WEBHOOK_TIMEOUT_SECONDS: positiveInt(10),
  /** How often the delivery dispatcher looks for due deliveries when it has nothing to do. */
  WEBHOOK_POLL_INTERVAL_MS: positiveInt(1000),
  /** Deliveries one dispatcher sends at the same time. */
  WEBHOOK_CONCURRENCY: positiveInt(8),
  /** Development and tests only: lets URL imports use http and loopback origins. Never other private addresses. */
  IMPORTS_ALLOW_INSECURE: flag,
  /** No byte from an import's origin for this long fails the fetch (it is tried again, resuming). */
  IMPORT_IDLE_TIMEOUT_SECONDS: positiveInt(60),
  /** Longest one fetch of an import may take, start to end. */
  IMPORT_TIMEOUT_SECONDS: positiveInt(6 * 3600),
  /** Fetches of one import before it is given up as failed (a crash, a time-out or a dropped connection each count one). */
  IMPORT_ATTEMPTS: positiveInt(5),
  /** How long a worker holds an import it fetches without renewing; a crashed worker's imports are resumed after it. */
  IMPORT_LEASE_SECONDS: positiveInt(120),
  /** How often an idle importer looks for imports to fetch. */
  IMPORT_POLL_INTERVAL_MS: positiveInt(1000),
  /** Imports one worker fetches at the same time. */
  IMPORT_CONCURRENCY: positiveInt(4),
  /**
   * ClamAV's clamd as `tcp://host:port`: every completed file is streamed to it (INSTREAM) before
   * anyone may download it. Unset: files are not scanned, and say so (`scanning` on /me).
   */
  CLAMD_URL: z
    .string()
    .regex(/^tcp:\/\/[^\s/:]+:\d{1,5}$/, { error: 'tcp://host:port, e.g. tcp://127.0.0.1:3310' })
    .optional(),
  /** No answer from clamd for this long fails a scan (it is tried again later). */
  SCAN_TIMEOUT_SECONDS: positiveInt(300),
  /** How long a worker holds a file it scans; a crashed worker's scans are taken over after it. */
  SCAN_LEASE_SECONDS: positiveInt(600),
  /** How often an idle scanner looks for files to scan. */
  SCAN_POLL_INTERVAL_MS: positiveInt(1000),
  /** Files one worker scans at the same time (keep it at or below clamd's MaxThreads). */
  SCAN_CONCURRENCY: positiveInt(2),
  /** Files in an S3-compatible bucket instead of DATA_DIR/files: set S3_BUCKET (and the keys). */
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'an S3 bucket name: 3 to 63 lower-case letters, digits, dots and hyphens' }).optional(),
  /** The S3-compatible endpoint (MinIO, Garage, SeaweedFS, R2, …); without it, AWS's own for the region. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path (`endpoint/bucket/key`), as most self-hosted S3 servers want. */
  S3_FORCE_PATH_STYLE: flag,
  /**
   * A file download answers with a redirect to a short-lived presigned GetObject URL once the
   * visit is checked and counted, so the bytes come from the bucket. Loses: receipts never complete,
   * the sandboxing headers are the bucket's. Zips still stream through the server.
   */
  S3_PRESIGNED_DOWNLOADS: flag,
  /** Multipart part size of uploads in MB (MiB); at least 32 so that imports report progress in parts. */
  S3_PART_SIZE_MB: z.coerce.number().int().min(32, { error: 'at least 32' }).max(5120, { error: 'at most 5120 (S3 allows 5 GiB parts)' }).default(64),
  /** Parts one upload holds in memory at once, the one being filled included: up to this many minus one are sent to S3 while the next fills. */
  S3_UPLOAD_QUEUE_SIZE: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * Memory for the parts of all uploads of one process together, in MB (MiB). A part that does not
   * fit waits; a PATCH that starts when nothing fits spools its parts to temporary files instead.
   */
  S3_UPLOAD_MEMORY_MB: z.coerce.number().int().min(32).default(512),
}).superRefine((c, ctx) => {
  const s3Set = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => c[k] !== undefined);
  if (!c.S3_BUCKET && s3Set.length > 0) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: `required when ${s3Set.join(', ')} ${s3Set.length > 1 ? 'are' : 'is'} set` });
  if (c.S3_PRESIGNED_DOWNLOADS && !c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_PRESIGNED_DOWNLOADS'], message: 'needs S3_BUCKET: only files in a bucket can be presigned' });
  if (c.S3_BUCKET && (!c.S3_ACCESS_KEY_ID || !c.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: 'custom', path: [c.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'], message: 'required with S3_BUCKET' });
  }
});

export type Config = Omit<z.output<typeof envSchema>, 'PUBLIC_URL' | 'DATA_DIR'> & {
  /** Absolute, so that the embedded database and files never depend on the working directory. */
  DATA_DIR: string;
  /** Without a trailing slash; links in mail and API responses are built from it. */
  PUBLIC_URL: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in the environment mean "not set", as shells and .env files tend to write them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const c = parsed.data;
  const port = c.PORT;
  return {
    ...c,
    DATA_DIR: path.resolve(c.DATA_DIR),
    PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
  };
}
