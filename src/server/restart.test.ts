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

async function startServerProcess(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  // One process (no tsx wrapper), so that SIGKILL hits the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy: ${stderr}`);
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
  const pm = await readPostmaster(dataDir);
  if (pm) {
    try {
      process.kill(pm.pid, 'SIGINT');
    } catch {
      /* already gone */
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
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
