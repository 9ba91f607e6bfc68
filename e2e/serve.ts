import fs from 'node:fs';
import path from 'node:path';
import { isAlive, readPostmaster } from '../src/server/db/embedded.js';
import { startTestClamd } from '../src/server/test/clamd.js';
import { e2eDataDir } from './data-dir.js';

/**
 * Runs the real server for the end-to-end suite on a fresh data directory named after its port,
 * so a test can point the operator CLI at the same instance.
 */
const dataDir = e2eDataDir(Number(process.env.PORT));
// A PostgreSQL left by an interrupted run would outlive the deletion of its directory: stop it first.
const leftover = await readPostmaster(dataDir);
if (leftover && isAlive(leftover.pid)) {
  process.kill(leftover.pid, 'SIGINT');
  for (let waited = 0; isAlive(leftover.pid) && waited < 30_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
}
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(path.dirname(dataDir), { recursive: true });
process.env.DATA_DIR = dataDir;
// URL imports from the tests' own origins, plain http on 127.0.0.1 (e2e/url-import.spec.ts).
process.env.IMPORTS_ALLOW_INSECURE = '1';
delete process.env.DATABASE_URL;
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
// E2E_CLAMD=1: a real clamd of the test's own (an EICAR signature) scans this server's files.
if (process.env.E2E_CLAMD === '1') {
  const clamd = await startTestClamd();
  process.env.CLAMD_URL = clamd.url;
  process.on('exit', () => clamd.killNow());
}
await import('../src/server/main.js');
