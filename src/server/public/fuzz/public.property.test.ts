import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StartedSubmissionSchema } from '../../../contract/public-requests.js';
import { UnlockResponseSchema } from '../../../contract/public.js';
import {
  authHeaders,
  edgeStrings,
  extraHeaders,
  FuzzRequest,
  junkBodies,
  late,
  liveId,
  oneIn,
  percentEncode,
  requestArbitrary,
  type Body,
  type FuzzWorld,
  type Piece,
} from '../../api/v1/fuzz/arbitraries.js';
import { assertProperty, fuzzRuns, printStatuses, sendAndCheck, type AnswerRules } from '../../api/v1/fuzz/check.js';
import { FuzzWorkspace, PUBLIC_URL, startFuzzServer } from '../../api/v1/fuzz/resources.js';
import { collectionsApi } from '../../test/collections.js';
import { dashboardRoutes } from '../../dashboard/routes.js';
import { encodeCursor } from '../../core/cursor.js';
import { slugOf } from '../../test/requests.js';
import type { TestServer } from '../../test/harness.js';
import { seedTransfer } from '../../test/transfers.js';
import { uploadTokenRoutes } from '../../uploads/renew.js';
import { publicRoutes } from '../transfers.js';
import { publicOperations, type PublicOperation } from './operations.js';

/**
 * Property-based fuzzing of every endpoint anyone can call without a credential: the recipient,
 * visitor and uploader APIs under /api/public (against a sent transfer and a password-protected
 * one, a public and a password-protected collection with files, and an open upload request with a
 * submission under way), the dashboard's sign-up, sign-in and password reset (every other dashboard
 * route called without a session), upload-token renewal, and the service's other anonymous
 * endpoints (health, OAuth metadata and provider, MCP). Valid requests, requests with each part
 * broken, and forged unlock, submission and upload tokens: never a 5xx, never a hang, every 4xx
 * JSON in the Error shape (OAuth and JSON-RPC answer in their own shapes where their protocols
 * say so). A failure prints FUZZ_SEED to replay it; FUZZ_RUNS sets the runs per endpoint.
 */

const RUNS = fuzzRuns(30);
const rules: AnswerRules = { publicUrl: PUBLIC_URL, errorShape: 'always' };

let server: TestServer;
let workspace: FuzzWorkspace;
/** Live values by kind: slugs, unlock and submission tokens, ids. */
const live: Record<string, string> = {};
const SUBMISSION = { name: 'Zoë', email: 'zoe@example.test', files: [{ name: 'a.pdf', size: 3, mimeType: 'application/pdf' }] };

async function startSubmission() {
  const res = await server.fetch(`/api/public/requests/${live['request:slug']}/submissions`, { method: 'POST', json: SUBMISSION });
  if (res.status !== 201) throw new Error(`fuzz setup: submission answered ${res.status} ${await res.text()}`);
  const started = StartedSubmissionSchema.parse(await res.json());
  live['submission:id'] = started.submission.id;
  live['submission:token'] = started.submission.token;
  live['submission:file'] = started.files[0]!.id;
  live['upload:token'] = started.files[0]!.uploadToken;
}

async function unlock(path: string): Promise<string> {
  const res = await server.fetch(`${path}/unlock`, { method: 'POST', json: { password: 'secret words' } });
  if (res.status !== 200) throw new Error(`fuzz setup: unlock answered ${res.status} ${await res.text()}`);
  return UnlockResponseSchema.parse(await res.json()).unlockToken;
}

beforeAll(async () => {
  server = await startFuzzServer();
  workspace = await FuzzWorkspace.create(server);
  const { workspaceId } = workspace;
  const files = [
    { name: 'a.txt', data: Buffer.from('hello, fuzz'), mimeType: 'text/plain' },
    { name: 'b.bin', data: randomBytes(2048), path: 'nested/dir' },
  ];
  const open = await seedTransfer(server, { workspaceId, title: 'Open', files, recipients: ['recipient@example.test'] });
  const locked = await seedTransfer(server, { workspaceId, title: 'Locked', files, password: 'secret words' });
  live['transfer:open'] = open.transfer.slug;
  live['transfer:locked'] = locked.transfer.slug;
  live['transfer:recipient'] = open.recipientTokens.get('recipient@example.test')!;
  live['transfer:unlock'] = await unlock(`/api/public/transfers/${locked.transfer.slug}`);

  const collections = collectionsApi(server, workspace.key);
  const shown = await collections.create({ title: 'Public', visibility: 'public' });
  const guarded = await collections.create({ title: 'Guarded', visibility: 'password', password: 'secret words' });
  for (const c of [shown, guarded]) {
    await collections.upload(c.id, [
      { name: 'one.txt', bytes: Buffer.from('one') },
      { name: 'two.txt', bytes: Buffer.from('two'), path: 'folder' },
      { name: 'three.txt', bytes: Buffer.from('three') },
    ]);
  }
  await workspace.call('POST', `/collections/${shown.id}/guests`, { emails: ['fuzz-guest@example.test'] });
  live['collection:folder'] = (await workspace.call('GET', `/collections/${shown.id}/folders`)).folders[0].id;
  live['collection:public'] = shown.slug;
  live['collection:public-id'] = shown.id;
  live['collection:locked'] = guarded.slug;
  live['collection:unlock'] = await unlock(`/api/public/collections/${guarded.slug}`);

  const { request } = await workspace.call('POST', '/requests', { title: 'Send us files', collectionId: workspace.ids.collection, requireEmail: false });
  live['request:slug'] = slugOf(request);
  await startSubmission();
  const registration = await server.fetch('/oauth/register', {
    method: 'POST',
    json: { client_name: 'Fuzz', redirect_uris: ['https://example.test/cb'], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', application_type: 'web' },
  });
  if (registration.status !== 201) throw new Error(`fuzz setup: registration answered ${registration.status} ${await registration.text()}`);
  live['oauth:client'] = ((await registration.json()) as { client_id: string }).client_id;
  live['owner:email'] = workspace.ownerEmail;
  live['session:forged'] = `parcel_session=${randomBytes(32).toString('base64url')}`;
}, 120_000);
afterAll(async () => {
  printStatuses();
  await server?.stop();
});

const world: FuzzWorld = {
  id: (kind) => live[kind] ?? `unknown-${kind}`,
  cursor: () => encodeCursor(server.services.cursorKey, `collection-files:${live['collection:public-id']}`, workspace.workspaceId, [1]),
  signCursor: (list, workspaceId, position) => encodeCursor(server.services.cursorKey, list, workspaceId, position as (string | number)[]),
  get workspaceId() {
    return workspace.workspaceId;
  },
};

/** Slugs alternate between the open and the guarded resource of each kind. */
const liveChoices: Record<string, string[]> = { 'transfer:slug': ['transfer:open', 'transfer:locked'], 'collection:slug': ['collection:public', 'collection:locked'] };
const liveParam = (kind: string) => (liveChoices[kind] ? fc.constantFrom(...liveChoices[kind].map(liveId)) : liveId(kind));

/** `{kind}` strings of a valid body as live values. */
function withLive(value: unknown): unknown {
  if (typeof value === 'string') return /^\{([\w:]+)\}$/.test(value) ? liveId(value.slice(1, -1)) : value;
  if (Array.isArray(value)) return value.map(withLive);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLive(v)]));
  return value;
}

function arbitraryFor(op: PublicOperation) {
  return requestArbitrary({ doc: {}, idFor: (name) => (name === 'folderId' ? liveId('collection:folder') : undefined) }, op, {
    prefix: '',
    validBody: op.valid ? withLive(op.valid) : undefined,
    liveParam: (param) => (op.live[param] ? liveParam(op.live[param]) : null),
    credential: op.credential ? { header: op.credential.header, value: liveId(op.credential.kind) } : undefined,
  });
}

/** Whether a successful request ended the submission or its file, so that a new one is needed. */
const endsSubmission = (op: PublicOperation) => op.route.endsWith('/finish') || (op.method === 'DELETE' && op.route.includes('/submissions/'));

/** Every route of the apps mounted without a credential, as `METHOD /path`. */
function mountedRoutes(): string[] {
  const services = server.services;
  const apps: [string, { routes: { method: string; path: string }[] }][] = [
    ['/api/public', publicRoutes(services)],
    ['/api/dashboard', dashboardRoutes()],
    ['/api/uploads/token', uploadTokenRoutes(services)],
  ];
  const routes = apps.flatMap(([prefix, app]) => app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${`${prefix}${r.path}`.replace(/\/$/, '')}`));
  return [...new Set(routes)].sort();
}

describe('property fuzzing every endpoint reachable without a credential', () => {
  it('has every route of the public, dashboard and upload-token apps to fuzz', () => {
    expect(publicOperations.map((op) => `${op.method} ${op.route}`).sort()).toEqual(mountedRoutes());
  });

  it.each(publicOperations.map((op) => [`${op.method} ${op.route}`, op] as const))(
    '%s: never a 5xx or a hang, every 4xx in the Error shape',
    async (_, op) => {
      await assertProperty(
        arbitraryFor(op),
        async (req) => {
          const answer = await sendAndCheck(server.url, req, world, rules);
          if (answer.status < 300 && endsSubmission(op)) await startSubmission();
        },
        RUNS,
      );
    },
    600_000,
  );
});

/** OAuth errors (RFC 6749 §5.2) and JSON-RPC errors are those protocols' own answers. */
const protocolErrorShape = (json: unknown) => {
  if (json === null || typeof json !== 'object') return false;
  const body = json as { error?: unknown; jsonrpc?: unknown };
  return typeof body.error === 'string' || (body.jsonrpc === '2.0' && typeof body.error === 'object');
};

/** OAuth parameters (RFC 6749, 7636, 8707), each with a valid-looking or a hostile value (`client_id` often the live client's), as query pieces. */
const oauthParameters: fc.Arbitrary<Piece[][]> = fc.array(
  fc.tuple(
    fc.constantFrom('client_id', 'client_id', 'response_type', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'grant_type', 'code', 'code_verifier', 'refresh_token', 'token', 'token_type_hint', 'prompt', 'nonce', 'request', 'request_uri', 'response_mode', 'client_secret'),
    fc.oneof(
      fc.constant<Piece>(late('oauth client', (w) => percentEncode(w.id('oauth:client')))),
      fc.constantFrom('code', 'authorization_code', 'refresh_token', 'S256', 'plain', 'https://example.test/cb', 'http://127.0.0.1/mcp', 'transfers:read', 'query', 'consent', 'none', 'x').map(percentEncode),
      fc.constantFrom(...edgeStrings.filter((v) => v.length < 2_000)).map(percentEncode),
    ),
  ).map(([k, v]): Piece[] => [`${k}=`, v]),
  { minLength: 1, maxLength: 6 },
);

/** A whole valid authorization request of the live client, with one parameter hostile: reaches the provider's interaction store. */
const authorizationRequest: fc.Arbitrary<Piece[][]> = fc
  .tuple(fc.constantFrom('state', 'nonce', 'scope', 'resource', 'code_challenge', 'redirect_uri', 'prompt', 'login_hint', 'ui_locales'), fc.constantFrom(...edgeStrings.filter((v) => v.length < 2_000)))
  .map(([name, value]) => {
    const params: Record<string, string> = {
      response_type: 'code',
      redirect_uri: 'https://example.test/cb',
      scope: 'transfers:read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${PUBLIC_URL}/mcp`,
      state: 'fuzz',
      [name]: value,
    };
    return [[`client_id=`, late('oauth client', (w) => percentEncode(w.id('oauth:client')))], ...Object.entries(params).map(([k, v]) => [`${k}=${percentEncode(v)}`])];
  });

/** Requests to the rest of what answers without a credential: health, OAuth metadata and provider, MCP, unknown API paths. */
const otherEndpoints: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
    path: fc.constantFrom(
      '/healthz',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/api/v1',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server',
      '/oauth/authorize',
      '/oauth/authorize',
      '/oauth/token',
      '/oauth/register',
      '/oauth/revoke',
      '/oauth/jwks',
      '/oauth/consent/fuzz/details',
      '/mcp',
      '/api',
      '/api/',
      '/api/nowhere',
      '/api/v2/transfers',
      '/api/public/nowhere',
      '/api/v1',
    ),
    query: oneIn(
      2,
      fc.oneof(
        fc.constantFrom(
          'client_id=https%3A%2F%2Fexample.test%2Fclient.json&response_type=code&redirect_uri=https%3A%2F%2Fexample.test%2Fcb&code_challenge=abc&code_challenge_method=S256&scope=transfers%3Aread&resource=http%3A%2F%2F127.0.0.1%2Fmcp',
          'client_id=http%3A%2F%2F127.0.0.1%3A1%2Fx&response_type=code',
          'response_type=token',
          'client_id=%00',
          'client_id=a&client_id=b',
          'resource=%C0%AF',
          'scope=%ED%A0%80',
        ),
        fc.string({ maxLength: 40 }).map(percentEncode),
      ).map((q): Piece[][] => [[q]]),
    ),
    oauthQuery: oneIn(2, fc.oneof(oauthParameters, authorizationRequest)),
    auth: authHeaders(late('key', () => `Bearer ${workspace.key}`)),
    contentType: fc.constantFrom(null, 'application/json', 'application/x-www-form-urlencoded', 'text/plain'),
    body: oneIn(
      2,
      fc.oneof(
        junkBodies.map(({ name, bytes }) => ({ name, bytes })),
        fc.constantFrom(
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}',
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_transfers","arguments":{"limit":"x"}}}',
          '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]',
          'grant_type=authorization_code&code=x&redirect_uri=https%3A%2F%2Fexample.test%2Fcb&code_verifier=x&client_id=https%3A%2F%2Fexample.test%2Fc',
          'grant_type=refresh_token&refresh_token=%00',
          'token=x&token_type_hint=access_token',
          '{"redirect_uris":["https://example.test/cb"],"client_name":"\\u0000"}',
        ).map((text) => ({ name: text.slice(0, 40), bytes: Buffer.from(text) })),
        fc.tuple(fc.constantFrom('grant_type', 'code', 'refresh_token', 'token', 'client_id', 'redirect_uri', 'code_verifier', 'resource'), fc.constantFrom(...edgeStrings.filter((v) => v.length < 2_000))).map(([k, v]) => ({
          name: `form ${k}`,
          bytes: Buffer.from(`grant_type=authorization_code&client_id=x&code=x&${k}=${percentEncode(v)}`),
        })),
      ),
    ),
    extra: extraHeaders,
  })
  .map(({ method, path, query, oauthQuery, auth, contentType, body, extra }) => {
    const headers: [string, Piece][] = [];
    const mutations: string[] = [];
    if (auth.value !== null) headers.push(['authorization', auth.value]);
    mutations.push(`auth ${auth.name}`);
    const sendsBody = body !== null && !['GET', 'HEAD'].includes(method);
    if (sendsBody && contentType) headers.push(['content-type', contentType]);
    if (sendsBody) headers.push(['accept', 'application/json, text/event-stream']);
    for (const h of extra) headers.push(h);
    const b: Body | undefined = sendsBody ? { kind: 'bytes', bytes: body.bytes } : undefined;
    if (sendsBody) mutations.push(`body ${body.name}`);
    return new FuzzRequest('other anonymous endpoints', method, [path], [...(query ?? []), ...(oauthQuery ?? [])], headers, b, mutations);
  });

describe('property fuzzing the other anonymous endpoints', () => {
  it('never a 5xx or a hang; JSON errors in the Error shape or their protocol’s own', async () => {
    await assertProperty(
      otherEndpoints,
      async (req) => {
        await sendAndCheck(server.url, req, world, { ...rules, errorShape: 'when-json', alsoAccept: protocolErrorShape });
      },
      RUNS * 8,
    );
  }, 600_000);
});

describe('regressions found by fuzzing', () => {
  // FUZZ_SEED=301 (FUZZ_RUNS=150): a NUL in a client_id reached PostgreSQL through the provider's
  // adapter, which failed: 500 server_error. No client has such an id.
  it('answers an authorization request for a client_id with a NUL as OAuth does, not with a 500', async () => {
    const res = await server.fetch('/oauth/authorize?client_id=%00&response_type=code');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });

  // FUZZ_SEED=404 (FUZZ_RUNS=150): client metadata with a NUL could not be stored (jsonb): 500.
  it('refuses to register a client whose metadata holds a NUL, as invalid metadata', async () => {
    const res = await server.fetch('/oauth/register', { method: 'POST', json: { redirect_uris: ['https://example.test/cb'], client_name: 'a\u0000b' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });

  // Found next to it (the property now sends whole authorization requests of a registered client):
  // one whose state held a NUL was saved as it was, and the write failed: 500.
  it('refuses an authorization request with a NUL in a parameter it keeps, not with a 500', async () => {
    const query = new URLSearchParams({
      client_id: live['oauth:client']!,
      response_type: 'code',
      redirect_uri: 'https://example.test/cb',
      scope: 'transfers:read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${PUBLIC_URL}/mcp`,
      state: 'a\u0000b',
    });
    const res = await server.fetch(`/oauth/authorize?${query}`, { redirect: 'manual' });
    // RFC 6749 §4.1.2.1: the client hears of the refusal at its redirect URI.
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://example.test/cb');
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  // FUZZ_SEED=531570779: a HEAD request to the OAuth provider was answered, then answered again
  // (Hono rebuilds a HEAD response, hiding that the provider had written it): ERR_HTTP_HEADERS_SENT.
  it('answers HEAD on the OAuth endpoints once, as their GET', async () => {
    const printed = vi.spyOn(console, 'error');
    try {
      for (const path of ['/.well-known/oauth-authorization-server', '/oauth/jwks']) {
        const get = await server.fetch(path);
        const head = await server.fetch(path, { method: 'HEAD' });
        expect(head.status, path).toBe(get.status);
        expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
        expect(await head.text(), path).toBe('');
      }
      const refused = await server.fetch('/oauth/authorize', { method: 'HEAD' });
      expect(refused.status).toBe(400);
      await new Promise((resolve) => setImmediate(resolve));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
