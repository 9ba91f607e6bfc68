import { operatorActor } from '../activity/activity.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { ErrorSchema, type ErrorBody } from '../../contract/errors.js';
import type { Scope } from '../../contract/scopes.js';
import { createApiKey } from '../auth/api-keys.js';
import { hashPassword } from '../auth/passwords.js';
import { ManualClock } from '../core/clock.js';
import type { OutgoingMessage } from '../mail/message.js';
import { freePort } from './oauth-client.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import type { SafeRequestDeps } from '../net/safe-request.js';
import { RedisRateLimitStore } from '../ratelimit/store.js';
import { startServer, type RunningServer } from '../assembly/runtime.js';
import { createWorkspaceWithOwner, setPlan } from '../workspaces/accounts.js';
import { startTestS3 } from './s3-server.js';
import type { Plan } from '../workspaces/plan.js';

/** A server on a test's database beside its TestServer: a peer, or the same server after a restart. */
export { startServer, type RunningServer };

export interface TestServer extends RunningServer {
  clock: ManualClock;
  databaseUrl: string;
  dataDir: string;
  /** The S3_* settings of this server's bucket in the S3 run (empty on disk), for servers that share its files. */
  storageEnv: Record<string, string>;
  /** Fetches a path of this server; `token` goes in `Authorization: Bearer`, `json` is sent as the body. */
  fetch(pathname: string, init?: TestRequestInit): Promise<Response>;
  /** A fresh workspace with its owner; emails are unique per call. */
  createWorkspace(options?: { plan?: Plan; planUntil?: Date | null; email?: string; password?: string }): Promise<TestWorkspace>;
  setPlan(workspaceId: string, plan: Plan, until?: Date | null): Promise<void>;
  stop(): Promise<void>;
}

export interface TestWorkspace {
  id: string;
  userId: string;
  email: string;
  password: string;
  createKey(scopes: readonly Scope[], name?: string): Promise<string>;
}

export interface TestRequestInit extends Omit<RequestInit, 'body'> {
  token?: string;
  json?: unknown;
  body?: string;
}

const hashes = new Map<string, Promise<string>>();

/**
 * A password's hash, made once per worker with the server's own scrypt parameters: the suites make
 * thousands of accounts and transfers with the same few passwords, and each hash costs a tenth of a
 * second of CPU. Signing in still verifies every time.
 */
export function hashedOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
}

/** Makes a database for one test server by cloning the migrated template. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('databaseAdminUrl');
  const name = `parcel_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestDatabase(url: string) {
  const admin = new pg.Client({ connectionString: inject('databaseAdminUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await admin.end();
}

/**
 * A bucket of its own on the run's S3 server (TEST_S3=1), as S3_* settings; none on disk. Tests of
 * what only disk storage does (bytes changed behind the server's back) ask for disk.
 */
export async function testStorageEnv(storage: 'default' | 'disk' = 'default'): Promise<Record<string, string>> {
  const s3 = inject('s3');
  if (!s3 || storage === 'disk') return {};
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return { S3_ENDPOINT: s3.endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey, S3_FORCE_PATH_STYLE: '1' };
}

/**
 * S3_* settings for a test that needs S3 whatever the run: a bucket of its own on the run's S3
 * server (TEST_S3=1), or an S3 server of its own started here. Call `stop` when done.
 */
export async function s3ForTest(): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  if (inject('s3')) return { env: await testStorageEnv(), stop: async () => undefined };
  const own = await startTestS3();
  return {
    env: { S3_ENDPOINT: own.endpoint, S3_BUCKET: own.bucket, S3_ACCESS_KEY_ID: own.credentials.accessKeyId, S3_SECRET_ACCESS_KEY: own.credentials.secretAccessKey, S3_FORCE_PATH_STYLE: '1' },
    stop: own.stop,
  };
}

/** Every message the server hands its mailer from now on, each still sent as usual (kept in the outbox). */
export function recordMail(server: Pick<RunningServer, 'services'>): OutgoingMessage[] {
  const sent: OutgoingMessage[] = [];
  const send = server.services.mailer.send.bind(server.services.mailer);
  server.services.mailer.send = async (message) => {
    sent.push(message);
    return send(message);
  };
  return sent;
}

/**
 * A test server listening where its PUBLIC_URL says, for tests that need the OAuth issuer (which is
 * PUBLIC_URL) reachable, such as the workspace fixture's connected app.
 */
export async function startTestServerAtPublicUrl(env: Record<string, string> = {}): Promise<{ server: TestServer; publicUrl: string }> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  return { server: await startTestServer({ PORT: String(port), PUBLIC_URL: publicUrl, ...env }), publicUrl };
}

/**
 * A real server on a free loopback port with its own database, data directory and clock.
 * With REDIS_URL set (the scale-out run), rate limits go through Redis under a unique prefix;
 * with TEST_S3=1, files go to a bucket of its own.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    outbound?: SafeRequestDeps;
    /** Where log lines go (JSON, one a line); silent without it. */
    logLines?: string[];
    /** A built SPA to serve, for tests of the page fallback. */
    staticDir?: string;
    /** A server render of the public pages to load (AppOptions.serverRenderEntry). */
    serverRenderEntry?: string;
    /** `disk` for tests that reach into DATA_DIR/files themselves; S3_* settings in `env` win over the run's. */
    storage?: 'default' | 'disk';
  } = {},
): Promise<TestServer> {
  const databaseUrl = await createTestDatabase();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-test-'));
  const storageEnv = env.S3_BUCKET ? {} : await testStorageEnv(options.storage);
  const config = loadConfig({
    ...storageEnv,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RUN_WORKER: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    REDIS_URL: process.env.REDIS_URL,
    ...env,
  });
  const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));
  const rateLimits = config.REDIS_URL ? RedisRateLimitStore.connect(config.REDIS_URL, `rl:test:${randomBytes(6).toString('hex')}:`) : undefined;
  const server = await startServer(config, { clock, databaseUrl, rateLimits, log: options.logLines ? collectingLogger(options.logLines) : createLogger('silent'), outbound: options.outbound, staticDir: options.staticDir, serverRenderEntry: options.serverRenderEntry });
  let emails = 0;

  const testServer: TestServer = {
    ...server,
    clock,
    databaseUrl,
    dataDir,
    storageEnv,
    fetch(pathname, init = {}) {
      const { token, json, headers, ...rest } = init;
      const h = new Headers(headers);
      if (token !== undefined) h.set('authorization', `Bearer ${token}`);
      if (json !== undefined) h.set('content-type', 'application/json');
      return fetch(`${server.url}${pathname}`, { ...rest, headers: h, body: json !== undefined ? JSON.stringify(json) : init.body });
    },
    async createWorkspace(options = {}) {
      const email = options.email ?? `owner${++emails}-${randomBytes(3).toString('hex')}@example.test`;
      const password = options.password ?? 'correct horse battery';
      const { workspace, user } = await createWorkspaceWithOwner(server.services.db, clock.now(), {
        email,
        password,
        passwordHash: await hashedOnce(password),
        workspaceName: `Workspace ${emails}`,
        plan: options.plan,
        // Tests say which plan they want, also for the server's first workspace (which is paid by default).
        firstAccountPlan: options.plan ?? 'free',
        planUntil: options.planUntil,
      });
      return {
        id: workspace.id,
        userId: user.id,
        email,
        password,
        createKey: async (scopes, name = 'test key') => {
          const plan = options.plan ?? 'free';
          return (await createApiKey(server.services.db, clock.now(), workspace.id, plan, name, scopes, operatorActor(null))).secret;
        },
      };
    },
    async setPlan(workspaceId, plan, until = null) {
      await setPlan(server.services.db, workspaceId, plan, until, { actor: operatorActor(null), at: clock.now() });
    },
    async stop() {
      await server.close();
      await dropTestDatabase(databaseUrl);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return testServer;
}

/** A logger at `info` that appends each JSON line it writes to `lines`. */
function collectingLogger(lines: string[]) {
  return createLogger('info', { write: (line: string) => void lines.push(line) });
}

/** The `error` of an Error body, with the detail fields the tests read typed: `fields` (a 400's) and `reason`. */
export type TestError = ErrorBody['error'] & { details: { fields?: { path: string; message: string }[]; reason?: string } };

/**
 * The error of a refused call: checks its status when given (the body in the failure message),
 * that it is JSON, and that it has the Error shape.
 */
export async function errorOf(res: Response, status?: number): Promise<TestError> {
  const body = await res.text();
  if (status !== undefined) expect(res.status, body).toBe(status);
  expect(res.headers.get('content-type'), body).toMatch(/^application\/json/);
  return ErrorSchema.parse(JSON.parse(body)).error as TestError;
}

/** `errorOf`, then the code when given and the `details` it must contain (e.g. `{ reason }`). Returns the error. */
export async function expectError(res: Response, status: number, code?: string, details?: Record<string, unknown>): Promise<TestError> {
  const error = await errorOf(res, status);
  if (code !== undefined) expect(error.code).toBe(code);
  if (details !== undefined) expect(error.details).toMatchObject(details);
  return error;
}

/** The dashboard session cookie a response sets, as a `Cookie` header value (`parcel_session=…`). */
export function sessionCookieOf(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('parcel_session='));
  expect(cookie, 'a session cookie is set').toBeDefined();
  return cookie!.split(';')[0]!;
}

/** Signs in through the dashboard (a workspace's owner, or any account) and returns the session's `Cookie` header value. */
export async function signIn(server: TestServer, account: { email: string; password: string }): Promise<string> {
  const res = await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: account.email, password: account.password } });
  expect(res.status, await res.clone().text()).toBe(200);
  return sessionCookieOf(res);
}

/** A bearer token acting as the person through the dashboard (the owner, for a workspace's account): what they make is theirs. */
export async function dashboardToken(server: TestServer, account: { email: string; password: string }): Promise<string> {
  const res = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie: await signIn(server, account) } });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
