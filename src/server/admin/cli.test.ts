// @module-tag scale-out — operator commands on an external database
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeSchema } from '../../contract/me.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { parseCommandLine } from './args.js';
import { AdminError } from './commands.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** Spawns the real CLI the way an operator's script would. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      ['src/server/admin/cli.ts', ...args],
      // DATA_DIR points at the test server's directory, where no embedded PostgreSQL runs: only DATABASE_URL can be used.
      // Starting tsx takes a second or two on an idle machine, many more on one busy with other suites.
      { cwd: root, env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

function usageError(argv: string[]): AdminError {
  try {
    parseCommandLine(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(AdminError);
    return err as AdminError;
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

describe('argument parsing', () => {
  it('parses each command into typed options', () => {
    expect(parseCommandLine(['--json', 'bootstrap', '--email', 'a@b.co', '--password=pw with spaces', '--plan', 'paid'])).toEqual({
      json: true,
      command: { name: 'bootstrap', options: { email: 'a@b.co', password: 'pw with spaces', workspaceName: undefined, plan: 'paid' } },
    });
    expect(parseCommandLine(['plan', 'set', '--workspace', 'ws_1', '--plan', 'paid', '--until', '2027-01-31']).command).toEqual({
      name: 'plan set',
      options: { workspaceId: 'ws_1', plan: 'paid', until: new Date('2027-01-31T00:00:00Z') },
    });
    expect(parseCommandLine(['plan', 'set', '--workspace', 'w', '--plan', 'paid', '--until', '2027-01-31T18:00:00+02:00']).command).toMatchObject({
      options: { until: new Date('2027-01-31T16:00:00Z') },
    });
    expect(parseCommandLine(['credit', 'add', '--workspace', 'ws_1', '--eur', '0.3', '--json'])).toEqual({
      json: true,
      command: { name: 'credit add', options: { workspaceId: 'ws_1', microEur: 300_000 } },
    });
    expect(parseCommandLine(['key', 'create', '--workspace', 'ws_1', '--name', 'ci', '--scopes', 'transfers:read, contacts:read']).command).toEqual({
      name: 'key create',
      options: { workspaceId: 'ws_1', name: 'ci', scopes: ['transfers:read', 'contacts:read'] },
    });
    expect(parseCommandLine(['domain', 'set', '--workspace', 'ws_1', '--domain', 'Files.Example.com']).command).toEqual({
      name: 'domain set',
      options: { workspaceId: 'ws_1', domain: 'files.example.com' },
    });
    expect(parseCommandLine(['domain', 'clear', '--workspace', 'ws_1']).command).toEqual({ name: 'domain clear', options: { workspaceId: 'ws_1' } });
    expect(parseCommandLine(['sso', 'add', '--name', 'Acme Login', '--issuer', 'https://login.acme.test', '--client-id', 'parcel', '--client-secret', 's3cret']).command).toEqual({
      name: 'sso add',
      options: { name: 'Acme Login', issuer: 'https://login.acme.test', clientId: 'parcel', clientSecret: 's3cret' },
    });
    expect(parseCommandLine(['sso', 'list']).command).toEqual({ name: 'sso list', options: {} });
    expect(parseCommandLine(['sso', 'remove', '--id', 'idp_1']).command).toEqual({ name: 'sso remove', options: { id: 'idp_1' } });
    expect(() => parseCommandLine(['sso', 'add', '--name', 'Acme Login', '--issuer', 'https://login.acme.test'])).toThrow(/--client-id is required/);
    expect(parseCommandLine(['key', 'create', '--help']).command).toEqual({ name: 'help' });
    expect(parseCommandLine(['-h']).command).toEqual({ name: 'help' });
  });

  it('tells usage errors (exit 2) from invalid values (exit 1)', () => {
    for (const argv of [[], ['frobnicate'], ['plan'], ['plan', 'get'], ['credit', 'add', '--workspace', 'w'], ['bootstrap', '--email', 'a@b.co', '--password', 'x', '--pw', 'y'], ['bootstrap', 'extra'], ['plan', 'set', '--workspace', 'w', '--plan', 'free', '--until', '2027-01-01']]) {
      const err = usageError(argv);
      expect([argv.join(' '), err.code, err.exitCode]).toEqual([argv.join(' '), 'usage', 2]);
    }
    expect(usageError(['bootstrap', '--email', '--password', 'x']).message).toBe('bootstrap: --email needs a value (write --email=-value for one that starts with a dash)');
    for (const argv of [['plan', 'set', '--workspace', 'w', '--plan', 'gold'], ['plan', 'set', '--workspace', 'w', '--plan', 'paid', '--until', '2027-02-30'], ['plan', 'set', '--workspace', 'w', '--plan', 'paid', '--until', '2027-01-01T10:00:00'], ['credit', 'add', '--workspace', 'w', '--eur=-1'], ['credit', 'add', '--workspace', 'w', '--eur', '0'], ['key', 'create', '--workspace', 'w', '--name', 'n', '--scopes', 'transfers:read,admin']]) {
      const err = usageError(argv);
      expect([argv.join(' '), err.code, err.exitCode]).toEqual([argv.join(' '), 'invalid_request', 1]);
    }
  });
});

describe('domain arguments', () => {
  it('needs --workspace and --domain for set, takes no --domain for clear, and refuses an IP address as a value', () => {
    for (const argv of [
      ['domain'],
      ['domain', 'get'],
      ['domain', 'set', '--workspace', 'w'],
      ['domain', 'clear', '--workspace', 'w', '--domain', 'x.example.com'],
    ]) {
      const err = usageError(argv);
      expect([argv.join(' '), err.code, err.exitCode]).toEqual([argv.join(' '), 'usage', 2]);
    }
    const ip = usageError(['domain', 'set', '--workspace', 'w', '--domain', '10.0.0.1']);
    expect([ip.code, ip.exitCode, ip.message]).toEqual(['invalid_request', 1, `--domain: An IP address cannot be a workspace's domain: "10.0.0.1"`]);
  });
});

describe('the CLI process', { timeout: 120_000 }, () => {
  it('lists identity providers with the redirect URI to register, and refuses to remove one that is not there', async () => {
    const listed = await runCli(['sso', 'list', '--json'], { DATABASE_URL: server.databaseUrl, PUBLIC_URL: 'https://files.example.test' });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ redirectUri: 'https://files.example.test/api/dashboard/signin/sso/callback' });
    const removed = await runCli(['sso', 'remove', '--id', 'idp_nothing', '--json'], { DATABASE_URL: server.databaseUrl });
    expect(removed.code).toBe(1);
    expect(JSON.parse(removed.stdout)).toMatchObject({ error: { code: 'not_found' } });
    const added = await runCli(['sso', 'add', '--name', 'Nowhere', '--issuer', 'https://127.0.0.1:9', '--client-id', 'x', '--client-secret', 'y', '--json'], { DATABASE_URL: server.databaseUrl });
    expect(added.code).toBe(1);
    expect(JSON.parse(added.stdout)).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('bootstraps with --json: one JSON object on stdout, and the key works on the running server', async () => {
    const email = `cli-${randomBytes(4).toString('hex')}@example.test`;
    const r = await runCli(['bootstrap', '--email', email, '--password', 'long enough pw', '--workspace', 'From CLI', '--plan', 'paid', '--json'], {
      DATABASE_URL: server.databaseUrl,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { workspaceId: string; apiKey: string; plan: string };
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(out).toMatchObject({ workspaceId: expect.stringMatching(/^ws_/), apiKey: expect.stringMatching(/^sk_live_/), plan: 'paid' });

    const res = await server.fetch('/api/v1/me', { token: out.apiKey });
    expect(res.status).toBe(200);
    const me = MeSchema.parse(await res.json());
    expect(me.workspace).toMatchObject({ id: out.workspaceId, name: 'From CLI' });
    expect(me.key.scopes).toHaveLength(8);
  });

  it('exits 2 with a message on stderr (and the error object on stdout with --json) for bad usage', async () => {
    const r = await runCli(['credit', 'add', '--workspace', 'ws_x', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('credit add: --eur is required');
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'usage', message: 'credit add: --eur is required' } });
  });
});

describe('domain set and clear through the CLI process', () => {
  it('sets the domain with --json, /me shows it, and clear removes it', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['contacts:read']);
    const env = { DATABASE_URL: server.databaseUrl };
    const set = await runCli(['domain', 'set', '--workspace', ws.id, '--domain', 'Cli.Example.com', '--json'], env);
    expect([set.code, set.stderr]).toEqual([0, '']);
    expect(JSON.parse(set.stdout)).toEqual({ workspaceId: ws.id, customDomain: 'cli.example.com', previousDomain: null });
    const me = async () => MeSchema.parse(await (await server.fetch('/api/v1/me', { token: key })).json()).workspace.customDomain;
    expect(await me()).toBe('cli.example.com');

    const clear = await runCli(['domain', 'clear', '--workspace', ws.id], env);
    expect([clear.code, clear.stdout.trim()]).toEqual([0, `Workspace ${ws.id} no longer has the domain cli.example.com`]);
    expect(await me()).toBeNull();
  });

  it("refuses PUBLIC_URL's host, and a bad domain before touching the database", async () => {
    const ws = await server.createWorkspace();
    const own = await runCli(['domain', 'set', '--workspace', ws.id, '--domain', 'parcel.example.com', '--json'], {
      DATABASE_URL: server.databaseUrl,
      PUBLIC_URL: 'https://parcel.example.com',
    });
    expect(own.code).toBe(1);
    expect(JSON.parse(own.stdout)).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringMatching(/this server's own host \(PUBLIC_URL\)/) },
    });

    const bad = await runCli(['domain', 'set', '--workspace', ws.id, '--domain', 'https://files.example.com/x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('admin: --domain: Give the hostname alone, without the scheme: not "https://files.example.com/x"');
  });
});
