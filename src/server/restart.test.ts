// @module-tag scale-out — a restart on the same database and storage
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPostmaster } from './db/embedded.js';

/**
 * The promise of `npm start` on the embedded default: a `kill -9` leaves PostgreSQL running with
 * its postmaster.pid, and the next start must still come up with every row intact.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-restart-'));
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function serverEnv(port: number, dir = dataDir): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

async function startServerProcess(port: number, dir = dataDir): Promise<ChildProcess> {
  // One process (no tsx wrapper), so that SIGKILL hits the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env: serverEnv(port, dir), stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  await waitHealthy(port, child, () => stderr);
  return child;
}

async function waitHealthy(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy: ${stderr()}`);
}

/** The state letter of /proc/<pid>/stat (Z for a zombie), or null once the process is reaped. */
function processState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
  } catch {
    return null;
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

const zombieDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-zombie-'));

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
  for (const dir of [dataDir, zombieDataDir]) {
    const pm = await readPostmaster(dir);
    if (pm) {
      try {
        process.kill(pm.pid, 'SIGINT');
      } catch {
        /* already gone */
      }
    }
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const dir of [dataDir, zombieDataDir]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start after kill -9', () => {
  it('comes back up on the same data directory with every row intact', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startServerProcess(port);

    const signup = await fetch(`${base}/api/dashboard/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'survivor@example.test', password: 'correct horse battery', workspaceName: 'Survivors' }),
    });
    expect(signup.status).toBe(201);
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const created = await fetch(`${base}/api/dashboard/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'kept', scopes: ['contacts:read'] }),
    });
    const { secret } = (await created.json()) as { secret: string };

    first.kill('SIGKILL');
    await exited(first);
    const leftover = await readPostmaster(dataDir);
    expect(leftover, 'the killed server leaves its PostgreSQL behind').not.toBeNull();

    const second = await startServerProcess(port);
    const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { workspace: { name: string } }).workspace.name).toBe('Survivors');
    const signin = await fetch(`${base}/api/dashboard/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'survivor@example.test', password: 'correct horse battery' }),
    });
    expect(signin.status).toBe(200);

    // A second server on the same DATA_DIR refuses to start rather than stop the live database.
    const intruderEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete intruderEnv.DATABASE_URL;
    const intruder = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env: intruderEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(intruder);
    let intruderErr = '';
    intruder.stderr?.on('data', (d) => (intruderErr += d));
    await exited(intruder);
    expect(intruder.exitCode).toBe(1);
    expect(intruderErr).toMatch(/in use by another process/);
    expect((await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);

    // A clean stop takes its PostgreSQL down with it.
    second.kill('SIGTERM');
    await exited(second);
    expect(second.exitCode).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});

describe('npm start right after kill -9 of the previous server', () => {
  it('starts although the killed server is a zombie its parent has not reaped yet', async () => {
    const port = await freePort();
    // The server runs under a parent that never reaps it (`exec sleep`), as a supervisor that has
    // not yet waited for its child: after kill -9 the old pid stays a zombie, and kill(pid, 0)
    // still succeeds for it.
    const parent = spawn('sh', ['-c', `"${process.execPath}" --import tsx src/server/main.ts & echo $!; exec sleep 300`], {
      env: serverEnv(port, zombieDataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(parent);
    let stderr = '';
    parent.stderr?.on('data', (d) => (stderr += d));
    const serverPid = await new Promise<number>((resolve) => parent.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
    await waitHealthy(port, parent, () => stderr);

    process.kill(serverPid, 'SIGKILL');
    const deadline = Date.now() + 10_000;
    while (processState(serverPid) !== 'Z' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(processState(serverPid), 'the killed server is left a zombie').toBe('Z');

    const next = await startServerProcess(port, zombieDataDir);
    expect(processState(serverPid), 'the old server was still an unreaped zombie while the new one started').toBe('Z');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    next.kill('SIGTERM');
    await exited(next);
    expect(next.exitCode).toBe(0);
  }, 120_000);
});
