import { operatorActor } from '../src/server/activity/activity.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { scopes } from '../src/contract/scope-names.js';
import { createApiKey } from '../src/server/auth/api-keys.js';
import { loadConfig } from '../src/server/config.js';
import { createLogger } from '../src/server/logger.js';
import { startServer, type RunningServer } from '../src/server/assembly/runtime.js';
import { createWorkspaceWithOwner } from '../src/server/workspaces/accounts.js';
import { installPinned, NODE_22, node22 as installNode22, pinnedCache } from './pinned-tools.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against a real server's /mcp,
 * part of `npm test`: 0.1.13 on this machine's Node 20, and the 0.2 alpha, which needs Node 22, on a
 * Node 22 binary from npm, once per protocol revision we serve (2025-11-25, 2026-07-28); then 0.2's
 * authorization-server metadata scenario against our OAuth AS. (Its authorization-code-grant scenario is left
 * out: its client expects a code back unattended, and ours waits for the signed-in owner's consent, by design.)
 *
 * The CLIs and the Node 22 binary are installed on demand, pinned, into .cache/mcp-conformance (git-ignored) by
 * scripts/pinned-tools.ts: nothing global, nothing in the project's node_modules. The CLI cannot send a bearer
 * token, so it talks to a loopback proxy that forwards every request unchanged (Host, Origin, body and SSE streamed) and only
 * adds an API key's Authorization header: the server under test has no switch of any kind for this.
 *
 * What does not apply to us is listed, with why, in scripts/mcp-conformance-expected-failures*.yml; anything
 * else failing (or a listed failure that now passes) fails the run.
 */

const CONFORMANCE_LEGACY = '0.1.13';
const CONFORMANCE_CURRENT = '0.2.0-alpha.12';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baselineLegacy = path.join(root, 'scripts/mcp-conformance-expected-failures-0.1.yml');
const baselineCurrent = path.join(root, 'scripts/mcp-conformance-expected-failures.yml');

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** With DATABASE_URL set (the external-PostgreSQL configuration), a database of this run's own on that server. */
async function ownDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `parcel_mcp_conformance_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Forwards each request as it came (Host and Origin too, bodies and SSE streamed both ways), adding only the bearer token. */
function startProxy(upstreamPort: number, token: string): Promise<http.Server> {
  const proxy = http.createServer((req, res) => {
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() !== 'authorization') headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    }
    headers.push('Authorization', `Bearer ${token}`);
    const upstream = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // The client hung up (an SSE stream it is done with): so does the proxy, upstream.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

interface Check {
  id: string;
  status: string;
}

/**
 * Totals over the checks.json files a run wrote: checks passed, failed (warnings included, as the CLI's baseline counts
 * them), failed as the baseline expects, and baseline entries that now pass (the CLI fails the run for those too).
 */
function tally(outputDir: string, baseline: string | null) {
  const entries = baseline ? (fs.readFileSync(baseline, 'utf8').match(/^\s*-\s*[^\s#]+/gm) ?? []).map((line) => line.replace(/^\s*-\s*/, '')) : [];
  let passed = 0;
  let failed = 0;
  let expected = 0;
  const failing = new Set<string>();
  const passing = new Set<string>();
  const scenarios = new Set<string>();
  for (const file of fs.readdirSync(outputDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('checks.json'))) {
    // Directories are named <scenario>-<ISO timestamp>, the server's prefixed with "server-".
    const scenario = path.basename(path.dirname(file)).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(/^server-/, '');
    scenarios.add(scenario);
    for (const check of JSON.parse(fs.readFileSync(path.join(outputDir, file), 'utf8')) as Check[]) {
      if (check.status === 'SUCCESS') {
        passed++;
        passing.add(`${scenario}:${check.id}`);
      } else if (check.status === 'FAILURE' || check.status === 'WARNING') {
        failed++;
        failing.add(scenario).add(`${scenario}:${check.id}`);
        if (entries.includes(scenario) || entries.includes(`${scenario}:${check.id}`)) expected++;
      }
    }
  }
  const stale = entries.filter((e) => !failing.has(e) && (e.includes(':') ? passing.has(e) : scenarios.has(e))).length;
  return { scenarios: scenarios.size, passed, failed, expected, stale };
}

interface Run {
  name: string;
  node: string;
  cli: string;
  args: string[];
  baseline: string | null;
}

async function run({ name, node, cli, args, baseline }: Run, outputDir: string): Promise<{ ok: boolean; summary: string }> {
  const started = Date.now();
  // The CLI's own report (every scenario, then the baseline's verdict) is shown only when the run fails.
  const log = path.join(outputDir, 'cli.log');
  const out = fs.openSync(log, 'w');
  const child = spawn(node, [cli, ...args, '-o', outputDir, ...(baseline ? ['--expected-failures', baseline] : [])], { cwd: outputDir, stdio: ['ignore', out, out] });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  fs.closeSync(out);
  if (code !== 0) {
    console.log(`\n== MCP conformance: ${name}: the CLI's report`);
    console.log(fs.readFileSync(log, 'utf8'));
  }
  const t = tally(outputDir, baseline);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const judged = baseline ? ` (${t.expected} listed as not applying, ${t.failed - t.expected} unexpected, ${t.stale} listed but now passing)` : '';
  const summary = `${code === 0 ? 'ok  ' : 'FAIL'} ${name}: ${t.scenarios} scenarios, ${t.passed} checks passed, ${t.failed} failed or warned${judged}, ${seconds} s`;
  return { ok: code === 0, summary };
}

async function main() {
  const installStarted = Date.now();
  const legacyDir = await installPinned('@modelcontextprotocol/conformance', CONFORMANCE_LEGACY);
  const currentDir = await installPinned('@modelcontextprotocol/conformance', CONFORMANCE_CURRENT);
  const node22 = await installNode22();
  const installSeconds = ((Date.now() - installStarted) / 1000).toFixed(1);
  console.log(`MCP conformance CLIs ${CONFORMANCE_LEGACY} and ${CONFORMANCE_CURRENT}, Node ${NODE_22}: installed or checked in ${installSeconds} s (${pinnedCache})`);
  const legacyCli = path.join(legacyDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const currentCli = path.join(currentDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-mcp-conformance-'));
  // A directory of its own: the embedded PostgreSQL runs as another user, who must reach it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-mcp-conformance-data-'));
  const database = process.env.DATABASE_URL ? await ownDatabase(process.env.DATABASE_URL) : null;
  let server: RunningServer | null = null;
  let proxy: http.Server | null = null;
  let keepResults = false;
  try {
    // The issuer and PUBLIC_URL are the address clients reach, so the port is chosen up front.
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: issuer,
      DATA_DIR: dataDir,
      RUN_WORKER: '0',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    });
    server = await startServer(config, { databaseUrl: database?.url, log: createLogger(config.LOG_LEVEL) });
    const owner = { email: `owner-${randomBytes(3).toString('hex')}@example.test`, password: randomBytes(12).toString('base64url') };
    const { workspace } = await createWorkspaceWithOwner(server.services.db, new Date(), { ...owner, workspaceName: 'MCP conformance', plan: 'paid' });
    const key = await createApiKey(server.services.db, new Date(), workspace.id, 'paid', 'MCP conformance', scopes, operatorActor(null));
    proxy = await startProxy(port, key.secret);
    const mcpUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}/mcp`;

    const runs: Run[] = [
      { name: `${CONFORMANCE_LEGACY} (Node 20), server`, node: process.execPath, cli: legacyCli, args: ['server', '--url', mcpUrl], baseline: baselineLegacy },
      ...['2025-11-25', '2026-07-28'].map((revision) => ({
        name: `${CONFORMANCE_CURRENT} (Node 22), server, revision ${revision}`,
        node: node22,
        cli: currentCli,
        // `all`: the default `active` suite leaves out the 2026 revision's scenarios (server-stateless, caching, header validation).
        args: ['server', '--url', mcpUrl, '--suite', 'all', '--spec-version', revision],
        baseline: baselineCurrent,
      })),
      {
        name: `${CONFORMANCE_CURRENT} (Node 22), authorization server metadata`,
        node: node22,
        cli: currentCli,
        args: ['authorization', '--url', issuer, '--scenario', 'authorization-server-metadata-endpoint'],
        baseline: null,
      },
    ];
    const results = [];
    for (const [i, r] of runs.entries()) {
      const outputDir = path.join(work, `run-${i}`);
      fs.mkdirSync(outputDir);
      results.push(await run(r, outputDir));
    }
    console.log('\n== MCP conformance summary');
    for (const { summary } of results) console.log(summary);
    keepResults = !results.every((r) => r.ok);
    process.exitCode = keepResults ? 1 : 0;
  } finally {
    proxy?.closeAllConnections();
    proxy?.close();
    await server?.close();
    await database?.drop();
    // A failed run keeps each scenario's checks.json (with the messages and the exchanged requests) for reading.
    if (keepResults) console.log(`Results of every scenario: ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
