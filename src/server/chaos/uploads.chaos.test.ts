// @module-tag scale-out — crashes and restarts against the configured database and storage
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPostmaster, runningEmbeddedUrl } from '../db/embedded.js';
import { runMaintenanceSweep, runTransferSweep } from '../assembly/worker.js';
import { createTestDatabase, dropTestDatabase } from '../test/harness.js';
import { startTestS3, type TestS3 } from '../test/s3-server.js';
import { signUpWithKey } from './client.js';
import { KillSchedule } from './kills.js';
import { chaosLong, chaosSeed, cleanEnv, freePort, healthy, killAllProcesses, seededRandom, startProcess, type ChaosProcess } from './processes.js';
import { startRoundRobin, type RoundRobin } from './round-robin.js';
import { planUploads, runUploads, uploadPlan } from './upload-scenario.js';
import {
  expectCompleteFilesMatchStorage,
  expectEachRecipientMailedOnce,
  liveStorageKeys,
  operatorServices,
  orphanedNames,
  sentMailCounts,
  storedNames,
  verifyThroughApi,
} from './verify.js';

/**
 * `npm start` as a self-hoster runs it (embedded PostgreSQL and files under DATA_DIR, the worker in
 * the same process), killed with SIGKILL (its whole process group) at random moments while
 * uploads run several at once, and started again on the same DATA_DIR each time. Every upload
 * resumes with tus-js-client and ends with the source's CRC-32, in the API, in the row and at its
 * /dl link; no file is ever complete with other bytes; each recipient is mailed once; and after
 * the sweeps no byte is left in storage that no live file owns. In the scale-out run (DATABASE_URL
 * and TEST_S3=1) the same again with two instances on external PostgreSQL and S3 (below).
 * CHAOS_LONG=1 runs the long form (100 uploads up to 64 MB); CHAOS_SEED replays a run.
 */

const seed = chaosSeed();
const random = seededRandom(seed);
const plan = uploadPlan(chaosLong);
const HOUR = 3_600_000;

describe(`uploads while the server is killed with SIGKILL (embedded PostgreSQL, seed ${seed})`, () => {
  let root: string;
  let dataDir: string;
  let workDir: string;
  let base: string;
  let env: NodeJS.ProcessEnv;
  let server: ChaosProcess;
  let token: string;

  async function startServer(): Promise<ChaosProcess> {
    server = await startProcess('server', 'src/server/main.ts', env, healthy(base));
    return server;
  }

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-chaos-uploads-'));
    // As root, the embedded PostgreSQL runs as the postgres user, who must reach DATA_DIR inside.
    await fs.chmod(root, 0o755);
    dataDir = path.join(root, 'data');
    workDir = path.join(root, 'sources');
    await fs.mkdir(workDir, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...cleanEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      RUN_WORKER: '1',
      // Every request of the run comes from one address; the limits are not what is tested here.
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
      RATE_LIMIT_KEY_PER_MINUTE: '1000000',
    };
    await startServer();

    token = await signUpWithKey(base, 'chaos@example.test', ['transfers:read', 'transfers:write']);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await killAllProcesses();
    // A run that failed mid-restart may have left the embedded PostgreSQL of the last killed server.
    const leftover = root ? await readPostmaster(dataDir) : null;
    if (leftover) {
      try {
        process.kill(leftover.pid, 'SIGINT');
      } catch {
        // Already gone.
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (root) await fs.rm(root, { recursive: true, force: true });
  }, 60_000);

  it(`${plan.uploads} uploads of 0 to ${plan.maxBytes / 1024 / 1024} MB, ${plan.parallel} at a time, through ${plan.kills} kills: every byte intact, nothing left over`, async () => {
    const started = Date.now();
    const uploads = planUploads(plan, random);
    // The bytes the clients send at least: what the kill thresholds are drawn from.
    const totalBytes = uploads.reduce((sum, u) => sum + (u.fate === 'discarded' ? u.size / 2 : u.size), 0);
    let restarting = false;
    const schedule = new KillSchedule(plan.kills, totalBytes, random, () => {
      if (restarting) return null;
      restarting = true;
      const killed = server;
      killed.killNow();
      return (async () => {
        await killed.exited;
        await startServer();
        restarting = false;
      })();
    });
    const outcomes = await runUploads({ plan, uploads, workDir, token, base, runId: String(seed), onBytesSent: schedule.onBytesSent });
    await schedule.settled();
    expect(schedule.kills, 'every planned kill landed while uploads were running').toBe(plan.kills);
    const uploaded = Date.now();

    await verifyThroughApi(base, token, outcomes);

    // The operator's view, on the server's own database and DATA_DIR: the sweeps run on a clock two
    // hours ahead (past any grace a sweep gives bytes that are still being written).
    const databaseUrl = await runningEmbeddedUrl(dataDir);
    expect(databaseUrl).not.toBeNull();
    const operator = await operatorServices({ databaseUrl: databaseUrl!, dataDir, now: new Date(Date.now() + 2 * HOUR) });
    try {
      await runTransferSweep(operator.services);
      await runMaintenanceSweep(operator.services);
      const kept = outcomes.filter((o) => o.fate === 'kept');
      expect(await expectCompleteFilesMatchStorage(operator.services)).toBe(kept.length);
      const names = await storedNames({ dataDir });
      expect(orphanedNames(names, await liveStorageKeys(operator.services)), 'bytes in DATA_DIR/files that no live file owns').toEqual([]);
      for (const o of kept) expect(names).toContain(o.fileId);
    } finally {
      await operator.close();
    }
    expectEachRecipientMailedOnce(await sentMailCounts([dataDir]), outcomes);
    console.info(
      `chaos uploads (embedded, seed ${seed}): ${outcomes.length} uploads, ${schedule.kills} kills, ` +
        `uploads ${((uploaded - started) / 1000).toFixed(1)} s, checks ${((Date.now() - uploaded) / 1000).toFixed(1)} s`,
    );
  }, chaosLong ? 1_800_000 : 180_000);
});

/**
 * The scale-out configuration (CI's second run sets DATABASE_URL and TEST_S3=1): two instances on
 * one external PostgreSQL (a database of their own), one S3-compatible bucket (an s3rver started
 * here) and Redis, each with the worker in-process, behind a round-robin balancer; one instance or
 * both killed at each moment. Registered only in that configuration.
 */
const scaleOut = Boolean(process.env.DATABASE_URL) && process.env.TEST_S3 === '1';
if (scaleOut) {
  describe(`uploads while instances are killed with SIGKILL (two instances, external PostgreSQL, S3, seed ${seed})`, () => {
    let root: string;
    let s3: TestS3;
    let s3Env: Record<string, string>;
    let databaseUrl: string;
    let balancer: RoundRobin;
    let token: string;
    const instances: { name: string; port: number; dataDir: string; env: NodeJS.ProcessEnv; proc?: ChaosProcess }[] = [];

    const startInstance = async (instance: (typeof instances)[number]) => {
      instance.proc = await startProcess(instance.name, 'src/server/main.ts', instance.env, healthy(`http://127.0.0.1:${instance.port}`));
    };

    beforeAll(async () => {
      root = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-chaos-scale-out-'));
      s3 = await startTestS3();
      s3Env = { S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: s3.credentials.accessKeyId, S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey, S3_FORCE_PATH_STYLE: '1' };
      databaseUrl = await createTestDatabase();
      balancer = await startRoundRobin(() => instances.map((i) => i.port));
      for (const name of ['instance-a', 'instance-b']) {
        const dataDir = path.join(root, name);
        const port = await freePort();
        instances.push({
          name,
          port,
          dataDir,
          env: {
            ...cleanEnv(),
            ...s3Env,
            // Parts of the smallest size S3 allows here: the long form's files span several, across PATCHes and instances.
            S3_PART_SIZE_MB: '32',
            DATABASE_URL: databaseUrl,
            ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            PUBLIC_URL: balancer.url,
            LOG_LEVEL: 'warn',
            RUN_WORKER: '1',
            RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
            RATE_LIMIT_KEY_PER_MINUTE: '1000000',
          },
        });
      }
      // One after the other: two pg-boss instances creating their queues at once on a new database may deadlock.
      for (const instance of instances) await startInstance(instance);
      token = await signUpWithKey(balancer.url, 'chaos-scale-out@example.test', ['transfers:read', 'transfers:write']);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(instances.map((i) => i.proc?.stop()));
      await killAllProcesses();
      await balancer?.close();
      if (databaseUrl) await dropTestDatabase(databaseUrl);
      await s3?.stop();
      if (root) await fs.rm(root, { recursive: true, force: true });
    }, 60_000);

    it(`${plan.uploads} uploads of 0 to ${plan.maxBytes / 1024 / 1024} MB, ${plan.parallel} at a time, through ${plan.kills} kills of one instance or both: every byte intact, nothing left over`, async () => {
      const started = Date.now();
      const uploads = planUploads(plan, random);
      const totalBytes = uploads.reduce((sum, u) => sum + (u.fate === 'discarded' ? u.size / 2 : u.size), 0);
      const restarting = new Set<(typeof instances)[number]>();
      const killed: string[] = [];
      const schedule = new KillSchedule(plan.kills, totalBytes, random, () => {
        // One instance or both, of those up now; the other may still be coming back from an earlier kill.
        const up = instances.filter((i) => !restarting.has(i));
        if (up.length === 0) return null;
        const pick = random();
        const victims = pick < 1 / 3 ? up : [up[Math.floor(pick * 3 - 1) % up.length]!];
        killed.push(victims.map((v) => v.name).join('+'));
        const procs = victims.map((v) => v.proc!);
        for (const v of victims) restarting.add(v);
        for (const p of procs) p.killNow();
        return Promise.all(
          victims.map(async (v, i) => {
            await procs[i]!.exited;
            await startInstance(v);
            restarting.delete(v);
          }),
        ).then(() => undefined);
      });
      const workDir = path.join(root, 'sources');
      await fs.mkdir(workDir, { recursive: true });
      const outcomes = await runUploads({ plan, uploads, workDir, token, base: balancer.url, runId: `${seed}-scale-out`, onBytesSent: schedule.onBytesSent }).catch((err: unknown) => {
        if (process.env.CHAOS_DEBUG) for (const i of instances) console.log(`${i.name}:\n${i.proc?.output()}`);
        throw err;
      });
      await schedule.settled();
      expect(schedule.kills, 'every planned kill landed while uploads were running').toBe(plan.kills);
      const uploaded = Date.now();

      await verifyThroughApi(balancer.url, token, outcomes);

      const operatorDir = path.join(root, 'operator');
      const operator = await operatorServices({ databaseUrl, dataDir: operatorDir, env: s3Env, now: new Date(Date.now() + 2 * HOUR) });
      try {
        await runTransferSweep(operator.services);
        await runMaintenanceSweep(operator.services);
        const kept = outcomes.filter((o) => o.fate === 'kept');
        expect(await expectCompleteFilesMatchStorage(operator.services)).toBe(kept.length);
        const names = await storedNames({ s3: s3Env });
        expect(orphanedNames(names, await liveStorageKeys(operator.services)), 'objects in the bucket that no live file owns').toEqual([]);
        for (const o of kept) expect(names).toContain(o.fileId);
        // Neither instance wrote file bytes to its own disk.
        for (const i of instances) expect(await storedNames({ dataDir: i.dataDir })).toEqual([]);
      } finally {
        await operator.close();
      }
      expectEachRecipientMailedOnce(await sentMailCounts([...instances.map((i) => i.dataDir), operatorDir]), outcomes);
      console.info(
        `chaos uploads (scale-out, seed ${seed}): ${outcomes.length} uploads, kills of ${killed.join(', ')}, ` +
          `uploads ${((uploaded - started) / 1000).toFixed(1)} s, checks ${((Date.now() - uploaded) / 1000).toFixed(1)} s`,
      );
    }, chaosLong ? 1_800_000 : 180_000);
  });
}
