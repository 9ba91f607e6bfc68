// @module-tag scale-out — crashes and restarts against the configured database and storage
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import { UPLOAD_TOKEN_HEADER } from '../uploads/tokens.js';
import { apiCall, downloadCrc, resumableUpload, signUpWithKey, writeSourceFile, type SourceFile } from './client.js';
import { startOwnPostgres, type OwnPostgres } from './own-postgres.js';
import { cleanEnv, freePort, healthy, killAllProcesses, startProcess, until, type ChaosProcess } from './processes.js';

/**
 * PostgreSQL restarted under a running server (the external-database configuration, on a
 * PostgreSQL of the test's own): while it is down every request that needs it is answered at once
 * with a clean 503 `unavailable` in the Error shape, with Retry-After (never a 500, never a hang, never
 * a crash); once it is back the same server process serves reads, uploads and downloads again.
 */

const MB = 1024 * 1024;
/** How long a request may take during the outage: a hung request fails the test here rather than at the suite's time-out. */
const ANSWER_WITHIN_MS = 15_000;

let postgres: OwnPostgres;
let root: string;
let base: string;
let server: ChaosProcess;
let token: string;

beforeAll(async () => {
  postgres = await startOwnPostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE parcel');
  await admin.end();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-chaos-pg-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(root, 'data'),
    DATABASE_URL: postgres.url.replace(/\/postgres$/, '/parcel'),
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    RUN_WORKER: '1',
  };
  server = await startProcess('server', 'src/server/main.ts', env, healthy(base));
  token = await signUpWithKey(base, 'outage@example.test', ['transfers:read', 'transfers:write']);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await killAllProcesses();
  await postgres?.destroy();
  if (root) await fs.rm(root, { recursive: true, force: true });
}, 60_000);

/** A sent transfer of one uploaded file: its ids, its file's upload token and its /dl link. */
async function sentTransfer(source: SourceFile) {
  const created = await apiCall(base, { method: 'POST', path: '/transfers', token, json: { files: [{ name: 'kept.bin', size: source.size }] } });
  expect(created.status).toBe(201);
  const body = created.body as { id: string; slug: string; files: { id: string; uploadToken: string }[] };
  const file = body.files[0]!;
  await resumableUpload({ endpoint: `${base}/files/`, uploadUrl: `${base}/files/${file.id}`, token: file.uploadToken, source, chunkSize: MB });
  expect((await apiCall(base, { method: 'POST', path: `/transfers/${body.id}/finalize`, token, json: {} })).status).toBe(200);
  const links = await apiCall(base, { method: 'GET', path: `/transfers/${body.id}/download-links`, token });
  return { id: body.id, slug: body.slug, fileId: file.id, uploadToken: file.uploadToken, url: (links.body as { files: { url: string }[] }).files[0]!.url };
}

describe('PostgreSQL restarted under a running server', () => {
  it('answers 503 unavailable while it is down and serves everything again once it is back, without a restart', async () => {
    const beforeSource = await writeSourceFile(path.join(root, 'before.bin'), 3 * MB + 17);
    const before = await sentTransfer(beforeSource);
    const pid = server.child.pid;

    await postgres.stop();
    const auth = { authorization: `Bearer ${token}` };
    const duringOutage: [string, string, RequestInit][] = [
      ['health check', '/healthz', {}],
      ['API read', `/api/v1/transfers/${before.id}`, { headers: auth }],
      ['API list', '/api/v1/transfers', { headers: auth }],
      ['API write', '/api/v1/transfers', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ files: [{ name: 'x.bin', size: 1 }] }) }],
      ['public page', `/api/public/transfers/${before.slug}`, {}],
      ['download', new URL(before.url).pathname, {}],
      ['tus HEAD', `/files/${before.fileId}`, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', [UPLOAD_TOKEN_HEADER]: before.uploadToken } }],
      [
        'tus PATCH',
        `/files/${before.fileId}`,
        {
          method: 'PATCH',
          headers: { 'Tus-Resumable': '1.0.0', [UPLOAD_TOKEN_HEADER]: before.uploadToken, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
          body: 'x',
        },
      ],
    ];
    // Twice over: the first requests find the pool's connections cut, the later ones find no server to connect to.
    for (const round of [1, 2]) {
      for (const [what, pathname, init] of duringOutage) {
        const res = await fetch(`${base}${pathname}`, { ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
        const label = `${what} (round ${round}): ${res.status}`;
        expect(res.status, label).toBe(503);
        expect(Number(res.headers.get('retry-after')), label).toBeGreaterThan(0);
        if (init.method === 'HEAD') continue;
        const body = ErrorSchema.parse(await res.json());
        expect(body.error.code, label).toBe('unavailable');
      }
    }
    expect(server.child.exitCode, `the server stays up through the outage: ${server.output()}`).toBeNull();

    await postgres.start();
    await until('the server to answer from the database again', async () => (await fetch(`${base}/api/v1/transfers/${before.id}`, { headers: auth })).status === 200);
    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    // The file sent before the outage still downloads whole, and a new one goes all the way through (the upload locks included).
    expect(await downloadCrc(before.url)).toEqual({ status: 200, crc32: beforeSource.crc32, length: beforeSource.size });
    const afterSource = await writeSourceFile(path.join(root, 'after.bin'), 2 * MB + 5);
    const after = await sentTransfer(afterSource);
    expect(await downloadCrc(after.url)).toEqual({ status: 200, crc32: afterSource.crc32, length: afterSource.size });
  }, 120_000);
});
