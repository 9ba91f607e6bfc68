import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { eq } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthStore, workspaces } from '../db/schema/index.js';
import { oauthScopes } from './provider.js';
import { sweepExpiredCredentials } from '../jobs/maintenance.js';
import type { ConnectFn, LookupFn } from '../net/safe-request.js';
import { setWorkspaceDisabled } from '../workspaces/operator.js';
import { expectError, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { browser as cookieBrowser, freePort, oauthTokens, signedInBrowser, type Browser } from '../test/oauth-client.js';

/**
 * The OAuth authorization server driven by a standard client library (oauth4webapi) against the real
 * server: discovery, dynamic registration, authorization with PKCE through the real consent routes
 * (the owner signed in to the dashboard, unticking a scope), code → token, the token on /api/v1,
 * refresh with rotation, replay detection, and the refusals the issue lists.
 */

let server: TestServer;
let issuer: string;
let as: oauth.AuthorizationServer;
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const redirectUri = 'http://127.0.0.1:9999/callback';

/**
 * An assistant's own https site on loopback, serving client ID metadata documents under a name of its
 * own (`assistant.example.test`, certificate from a CA made for this run). The server reaches it through
 * its real SSRF-safe client: only name resolution and the certificate's trust are this test's.
 */
const assistantHost = 'assistant.example.test';
const assistantDocs = new Map<string, string>();
const assistantFetches: string[] = [];
let assistantSite: https.Server;
let assistantOrigin: string;
let assistantCert: string;

function selfSignedCertificate(host: string): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-oauth-tls-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
      '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`], { stdio: 'ignore' });
    return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const assistantLookup: LookupFn = async (hostname) => (hostname === assistantHost ? [{ address: '127.0.0.1', family: 4 }] : []);
const assistantConnect: ConnectFn = ({ host, port, tls: secure, signal }) =>
  new Promise((resolve, reject) => {
    const options = { host, port, ca: assistantCert, ALPNProtocols: ['http/1.1'] };
    const socket = secure ? tls.connect({ ...options, servername: secure.servername }, () => resolve(socket)) : net.connect(options, () => resolve(socket));
    socket.once('error', reject);
    signal.addEventListener('abort', () => socket.destroy(new Error('aborted')));
  });

beforeAll(async () => {
  const { key, cert } = selfSignedCertificate(assistantHost);
  assistantCert = cert;
  assistantSite = https.createServer({ key, cert }, (req, res) => {
    assistantFetches.push(req.url ?? '');
    const doc = assistantDocs.get(req.url ?? '');
    res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' }).end(doc ?? '{}');
  });
  await new Promise<void>((resolve) => assistantSite.listen(0, '127.0.0.1', resolve));
  assistantOrigin = `https://${assistantHost}:${(assistantSite.address() as net.AddressInfo).port}`;

  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  server = await startTestServer(
    { PORT: String(port), PUBLIC_URL: issuer, RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000', OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: '1' },
    { outbound: { lookup: assistantLookup, connect: assistantConnect } },
  );
  as = await oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...insecure }));
});
afterAll(async () => {
  await server.stop();
  assistantSite.closeAllConnections();
  await new Promise((resolve) => assistantSite.close(resolve));
});

const browser = () => cookieBrowser(issuer);
const signedIn = (ws: TestWorkspace) => signedInBrowser(issuer, ws);

async function register(): Promise<oauth.Client> {
  const metadata = { client_name: 'Test assistant', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', application_type: 'native' };
  const registered = await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(as, metadata, insecure));
  return { client_id: registered.client_id };
}

interface AuthorizeParams {
  scope: string;
  resource?: string;
  state?: string;
  verifier?: string;
  redirect_uri?: string;
  code_challenge_method?: string;
}

async function authorizeUrl(client: oauth.Client, p: AuthorizeParams & { challenge?: string | null }) {
  const url = new URL(as.authorization_endpoint!);
  const params: Record<string, string | undefined> = {
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: p.redirect_uri ?? redirectUri,
    scope: p.scope,
    state: p.state,
    resource: p.resource,
    code_challenge: p.challenge === null ? undefined : (p.challenge ?? (p.verifier ? await oauth.calculatePKCECodeChallenge(p.verifier) : undefined)),
    code_challenge_method: p.challenge === null ? undefined : (p.code_challenge_method ?? 'S256'),
  };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** Authorizes as the signed-in owner who leaves `approved` ticked; returns what the app's redirect URI received. */
async function approve(open: Browser, client: oauth.Client, scope: string, approved: string[], resource = `${issuer}/mcp`) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const start = await open(await authorizeUrl(client, { scope, resource, state, verifier }));
  expect(start.status).toBe(303);
  const consent = start.headers.get('location')!;
  expect(consent).toMatch(/^\/oauth\/consent\/[A-Za-z0-9_-]+$/);
  const details = (await (await open(`${consent}/details`)).json()) as { client: { name: string }; redirectHost: string; scopes: string[]; resource: string };
  expect(details).toMatchObject({ client: { name: 'Test assistant' }, redirectHost: '127.0.0.1:9999', scopes: scope.split(' '), resource });
  const decided = await open(consent, { method: 'POST', headers: { 'content-type': 'application/json', origin: issuer }, body: JSON.stringify({ approve: true, scopes: approved }) });
  expect(decided.status).toBe(200);
  const { redirectTo } = (await decided.json()) as { redirectTo: string };
  const back = new URL((await open(redirectTo)).headers.get('location')!);
  return { back, state, verifier };
}

/** Publishes a client ID metadata document on the assistant's site; the client's id is the document's URL. */
function metadataClient(docPath: string, metadata: Record<string, unknown> = {}): oauth.Client {
  const clientId = `${assistantOrigin}${docPath}`;
  const doc = { client_id: clientId, client_name: 'Test assistant', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...metadata };
  assistantDocs.set(docPath, JSON.stringify(doc));
  return { client_id: clientId };
}

async function tokens(client: oauth.Client, open: Browser, scope: string, approved: string[], resource = `${issuer}/mcp`) {
  const { back, state, verifier } = await approve(open, client, scope, approved, resource);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { additionalParameters: { resource }, ...insecure });
  return { params, verifier, tokens: await oauth.processAuthorizationCodeResponse(as, client, response) };
}

const me = async (token: string) => {
  const res = await fetch(`${issuer}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { key?: { via: string; canEmail: boolean; scopes: string[] } } };
};

describe('OAuth for AI assistants', () => {
  it('publishes RFC 8414 metadata (S256 only, iss in responses, registration) and RFC 9728 metadata for /mcp', async () => {
    expect(as).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    // Exactly the scopes a token can hold: no `openid`, as no ID token is issued (and no OpenID configuration is served).
    expect([...as.scopes_supported!].sort()).toEqual([...oauthScopes].sort());
    expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status).toBe(404);
    // RFC 9728 §3.3: each resource's document at its own path-suffixed address, naming that resource (a strict client checks).
    for (const path of ['/mcp', '/api/v1']) {
      const resource = new URL(`${issuer}${path}`);
      const metadata = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));
      expect(metadata).toMatchObject({ resource: `${issuer}${path}`, authorization_servers: [issuer], bearer_methods_supported: ['header'] });
    }
    // The origin itself is no protected resource.
    expect((await fetch(`${issuer}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });

  it('points a 401 from /api/v1 at the API’s own resource metadata, with which a client gets a token for the API', async () => {
    const refused = await fetch(`${issuer}/api/v1/me`);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate')!;
    expect(challenge).toBe(`Bearer realm="api", resource_metadata="${issuer}/.well-known/oauth-protected-resource/api/v1"`);
    const metadata = (await (await fetch(challenge.match(/resource_metadata="([^"]+)"/)![1]!)).json()) as { resource: string };
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await oauthTokens(issuer, ws, ['transfers:read'], metadata.resource);
    expect((await fetch(`${issuer}/api/v1/me`, { headers: { authorization: `Bearer ${token.accessToken}` } })).status).toBe(200);
  });

  it('holds an assistant’s grant to the workspace’s requirements, also one approved before them', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await oauthTokens(issuer, ws, ['transfers:read'], `${issuer}/api/v1`);
    const meWith = () => fetch(`${issuer}/api/v1/me`, { headers: { authorization: `Bearer ${token.accessToken}` } });
    expect((await meWith()).status).toBe(200);
    await server.services.db.update(workspaces).set({ requireTwoStep: true }).where(eq(workspaces.id, ws.id));
    await expectError(await meWith(), 403, 'forbidden', { reason: 'two_step_required' });
    await server.services.db.update(workspaces).set({ requireTwoStep: false, requireSingleSignOn: true }).where(eq(workspaces.id, ws.id));
    await expectError(await meWith(), 403, 'forbidden', { reason: 'single_sign_on_required' });
    await server.services.db.update(workspaces).set({ requireSingleSignOn: false }).where(eq(workspaces.id, ws.id));
    expect((await meWith()).status).toBe(200);
  });

  it('registers a client, lets the signed-in owner untick a scope, and gives tokens that work on /api/v1 as the owner, with no value stored', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const client = await register();
    const open = await signedIn(ws);
    const { tokens: t, params } = await tokens(client, open, 'transfers:read transfers:write contacts:read transfers:send', ['transfers:read', 'transfers:write', 'contacts:read']);
    expect(t.access_token).toMatch(/^oat_/);
    expect(t.refresh_token).toMatch(/^ort_/);
    expect(t.scope?.split(' ').sort()).toEqual(['contacts:read', 'transfers:read', 'transfers:write']);

    const { status, body } = await me(t.access_token);
    expect(status).toBe(200);
    expect(body.key).toMatchObject({ via: 'oauth', canEmail: false });
    expect(body.key!.scopes.sort()).toEqual(['contacts:read', 'transfers:read', 'transfers:write']);

    const stored = JSON.stringify(await server.services.db.select().from(oauthStore));
    for (const secret of [t.access_token, t.refresh_token!, params.get('code')!]) expect(stored).not.toContain(secret);

    // The sweep forgets what expired (here the used code, made to expire), and nothing live.
    await server.services.db.update(oauthStore).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthStore.model, 'AuthorizationCode'));
    const swept = await sweepExpiredCredentials(server.services);
    expect(swept.oauth).toBeGreaterThan(0);
    expect(await server.services.db.select().from(oauthStore).where(eq(oauthStore.model, 'AuthorizationCode'))).toEqual([]);
    expect((await me(t.access_token)).status).toBe(200);

    // Issued for /mcp, it opens /mcp; one issued for /api/v1 works there but not on /mcp.
    const mcp = (token: string) =>
      fetch(`${issuer}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect((await mcp(t.access_token)).status).not.toBe(401);
    const forApi = await tokens(client, open, 'transfers:read', ['transfers:read'], `${issuer}/api/v1`);
    expect((await me(forApi.tokens.access_token)).status).toBe(200);
    const refused = await mcp(forApi.tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`);

    // With transfers:send granted, it may email recipients.
    const withSend = await tokens(client, open, 'transfers:read transfers:send', ['transfers:read', 'transfers:send']);
    expect((await me(withSend.tokens.access_token)).body.key).toMatchObject({ via: 'oauth', canEmail: true });
  });

  it('offers every advertised scope to a client that asks for none, and grants only what the owner leaves ticked', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const open = await signedIn(ws);
    const verifier = oauth.generateRandomCodeVerifier();
    const start = await open(await authorizeUrl(client, { scope: '', state: 'no-scope', resource: `${issuer}/mcp`, verifier }));
    const consent = start.headers.get('location')!;
    const details = (await (await open(`${consent}/details`)).json()) as { scopes: string[] };
    expect(details.scopes.sort()).toEqual([...oauthScopes].sort());
    const decided = await open(consent, { method: 'POST', headers: { 'content-type': 'application/json', origin: issuer }, body: JSON.stringify({ approve: true, scopes: ['contacts:read'] }) });
    const back = new URL((await open(((await decided.json()) as { redirectTo: string }).redirectTo)).headers.get('location')!);
    const params = oauth.validateAuthResponse(as, client, back, 'no-scope');
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { additionalParameters: { resource: `${issuer}/mcp` }, ...insecure });
    const t = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(t.scope).toBe('contacts:read');
    expect((await me(t.access_token)).body.key).toMatchObject({ via: 'oauth', scopes: ['contacts:read'] });
  });

  it('rotates refresh tokens, and a replayed one revokes the whole grant', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const { tokens: first } = await tokens(client, await signedIn(ws), 'transfers:read', ['transfers:read']);
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect((await me(refreshed.access_token)).status).toBe(200);

    const replay = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure)).status).toBe(400);
    expect((await me(refreshed.access_token)).status).toBe(401);
    expect((await me(first.access_token)).status).toBe(401);
  });

  it('stops a disabled workspace’s app at once, and gives it no new token on refresh', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const { tokens: t } = await tokens(client, await signedIn(ws), 'transfers:read', ['transfers:read']);
    await setWorkspaceDisabled(server.services.db, ws.id, true, new Date());
    expect((await me(t.access_token)).status).toBe(403);
    const refresh = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), t.refresh_token!, insecure);
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('lets one of two concurrent refreshes with the same token win; the other is a replay', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const { tokens: t } = await tokens(client, await signedIn(ws), 'transfers:read', ['transfers:read']);
    const answers = await Promise.all([0, 1].map(() => oauth.refreshTokenGrantRequest(as, client, oauth.None(), t.refresh_token!, insecure)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = (await answers.find((a) => a.status === 200)!.json()) as { refresh_token: string };
    expect((await oauth.refreshTokenGrantRequest(as, client, oauth.None(), winner.refresh_token, insecure)).status).toBe(400);
  });

  it('refuses a missing resource or PKCE, plain PKCE, an unknown resource and an inexact redirect URI; state is optional', async () => {
    const client = await register();
    const open = browser();
    const verifier = oauth.generateRandomCodeVerifier();
    const base = { scope: 'transfers:read', state: 'st', resource: `${issuer}/mcp`, verifier };
    const refusal = async (p: AuthorizeParams & { challenge?: string | null }) => {
      const res = await open(await authorizeUrl(client, p));
      const location = res.headers.get('location');
      if (location && !location.startsWith('/oauth/consent/')) {
        const back = new URL(location);
        return { at: back.origin + back.pathname, error: back.searchParams.get('error'), iss: back.searchParams.get('iss') };
      }
      return { status: res.status, error: ((await res.json().catch(() => ({}))) as { error?: string }).error ?? null };
    };
    const atApp = (error: string) => ({ at: redirectUri, error, iss: issuer });
    // PKCE binds the code to the client that asked (OAuth 2.1 §7.5.1), and some MCP clients send no state: on to the owner's consent.
    const stateless = await open(await authorizeUrl(client, { ...base, state: undefined }));
    expect(stateless.status).toBe(303);
    expect(stateless.headers.get('location')).toMatch(/^\/oauth\/consent\//);
    expect(await refusal({ ...base, resource: undefined })).toEqual(atApp('invalid_target'));
    expect(await refusal({ ...base, resource: 'https://evil.example/mcp' })).toEqual(atApp('invalid_target'));
    expect(await refusal({ ...base, challenge: null })).toEqual(atApp('invalid_request'));
    expect(await refusal({ ...base, challenge: verifier, code_challenge_method: 'plain' })).toEqual(atApp('invalid_request'));
    // A redirect URI that is not exactly a registered one is never redirected to.
    expect(await refusal({ ...base, redirect_uri: 'http://127.0.0.1:9998/callback' })).toEqual({ status: 400, error: 'invalid_redirect_uri' });
    expect(await refusal({ ...base, redirect_uri: `${redirectUri}?x=1` })).toEqual({ status: 400, error: 'invalid_redirect_uri' });
  });

  it('registers redirect URIs over https, or over plain http only on loopback; any other is 400 invalid_redirect_uri', async () => {
    const registerWith = async (redirect_uris: string[], application_type = 'web') => {
      const res = await fetch(`${issuer}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Test assistant', redirect_uris, application_type, token_endpoint_auth_method: 'none' }),
      });
      return { status: res.status, error: ((await res.json()) as { error?: string }).error };
    };
    const before = (await server.services.db.select().from(oauthStore)).length;
    for (const uri of ['http://evil.example/cb', 'http://127.0.0.2/cb', 'http://10.0.0.7/cb', 'http://localhost.evil.example/cb', 'HTTP://EVIL.EXAMPLE/cb']) {
      expect({ uri, ...(await registerWith([uri])) }).toEqual({ uri, status: 400, error: 'invalid_redirect_uri' });
    }
    expect(await registerWith(['https://app.example/cb', 'http://evil.example/cb'])).toEqual({ status: 400, error: 'invalid_redirect_uri' });
    expect(await registerWith(['http://evil.example/cb'], 'native')).toMatchObject({ status: 400 });
    expect((await server.services.db.select().from(oauthStore)).length).toBe(before);

    for (const uri of ['https://app.example/cb', 'http://127.0.0.1:9999/cb', 'http://[::1]:9999/cb', 'http://localhost:9999/cb']) {
      expect({ uri, ...(await registerWith([uri])) }).toEqual({ uri, status: 201, error: undefined });
    }
  });

  it('refuses a wrong PKCE verifier and a reused code (which also revokes what the code gave)', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const open = await signedIn(ws);
    const { back, state } = await approve(open, client, 'transfers:read', ['transfers:read']);
    const params = oauth.validateAuthResponse(as, client, back, state);
    const exchange = (v: string) =>
      oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, v, { additionalParameters: { resource: `${issuer}/mcp` }, ...insecure });
    const wrong = await exchange(oauth.generateRandomCodeVerifier());
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');

    const again = await approve(open, client, 'transfers:read', ['transfers:read']);
    const params2 = oauth.validateAuthResponse(as, client, again.back, again.state);
    const swap = (v: string) =>
      oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params2, redirectUri, v, { additionalParameters: { resource: `${issuer}/mcp` }, ...insecure });
    const good = await oauth.processAuthorizationCodeResponse(as, client, await swap(again.verifier));
    const reused = await swap(again.verifier);
    expect(reused.status).toBe(400);
    expect((await me(good.access_token)).status).toBe(401);
  });

  it('needs the dashboard session for the consent routes, and a declined request reaches the app as access_denied', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const stranger = browser();
    const start = await stranger(await authorizeUrl(client, { scope: 'transfers:read', state: 's1', resource: `${issuer}/mcp`, verifier: oauth.generateRandomCodeVerifier() }));
    const consent = start.headers.get('location')!;
    expect((await stranger(`${consent}/details`)).status).toBe(401);

    const open = await signedIn(ws);
    const begin = await open(await authorizeUrl(client, { scope: 'transfers:read', state: 's2', resource: `${issuer}/mcp`, verifier: oauth.generateRandomCodeVerifier() }));
    const page = begin.headers.get('location')!;
    const declined = await open(page, { method: 'POST', headers: { 'content-type': 'application/json', origin: issuer }, body: JSON.stringify({ approve: false }) });
    const back = new URL((await open(((await declined.json()) as { redirectTo: string }).redirectTo)).headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 's2', iss: issuer });
  });

  it('lists the owner’s connected apps with their scopes and last use, and revoking one ends its tokens at once', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const open = await signedIn(ws);
    const { tokens: t } = await tokens(client, open, 'transfers:read contacts:read', ['transfers:read']);
    expect((await me(t.access_token)).status).toBe(200);

    const listed = (await (await open('/api/dashboard/connected-apps')).json()) as { apps: { id: string; client: { name: string }; scopes: string[]; resource: string; lastUsedAt: string | null }[] };
    expect(listed.apps).toHaveLength(1);
    expect(listed.apps[0]).toMatchObject({ client: { name: 'Test assistant' }, scopes: ['transfers:read'], resource: `${issuer}/mcp` });
    await expect.poll(async () => ((await (await open('/api/dashboard/connected-apps')).json()) as typeof listed).apps[0]!.lastUsedAt).not.toBeNull();

    // Another owner can neither see nor revoke it.
    const other = await signedIn(await server.createWorkspace());
    expect(((await (await other('/api/dashboard/connected-apps')).json()) as typeof listed).apps).toEqual([]);
    expect((await other(`/api/dashboard/connected-apps/${listed.apps[0]!.id}`, { method: 'DELETE', headers: { origin: issuer } })).status).toBe(404);
    expect((await me(t.access_token)).status).toBe(200);

    const revoked = await open(`/api/dashboard/connected-apps/${listed.apps[0]!.id}`, { method: 'DELETE', headers: { origin: issuer } });
    expect(revoked.status).toBe(200);
    expect((await me(t.access_token)).status).toBe(401);
    expect((await oauth.refreshTokenGrantRequest(as, client, oauth.None(), t.refresh_token!, insecure)).status).toBe(400);
    expect(((await (await open('/api/dashboard/connected-apps')).json()) as typeof listed).apps).toEqual([]);
  });

  it('lets an app email recipients only with transfers:send: without it, 403 insufficient_scope naming the scope', async () => {
    const ws = await server.createWorkspace();
    const client = await register();
    const { tokens: t } = await tokens(client, await signedIn(ws), 'transfers:read transfers:write', ['transfers:read', 'transfers:write']);
    const draft = { title: 'For Ada', files: [{ name: 'notes.txt', size: 5 }], recipients: ['ada@example.test'] };
    const refused = await fetch(`${issuer}/api/v1/transfers`, { method: 'POST', headers: { authorization: `Bearer ${t.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify(draft) });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string; details: { required: string } } };
    expect(body.error).toMatchObject({ code: 'insufficient_scope', details: { required: 'transfers:send' } });
    expect(body.error.message).toContain('transfers:send');
    // Without recipients the same token makes the draft.
    const made = await fetch(`${issuer}/api/v1/transfers`, { method: 'POST', headers: { authorization: `Bearer ${t.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...draft, recipients: [] }) });
    expect(made.status).toBe(201);
  });
});

describe('clients identified by a client ID metadata document (an https URL)', () => {
  it('fetches the document from the client’s own https URL, once while cached, and completes the whole flow with it', async () => {
    const ws = await server.createWorkspace();
    const client = metadataClient('/oauth/client.json');
    const open = await signedIn(ws);
    const { tokens: t } = await tokens(client, open, 'transfers:read contacts:read', ['transfers:read', 'contacts:read']);
    expect((await me(t.access_token)).body.key).toMatchObject({ via: 'oauth' });
    const fetched = assistantFetches.filter((u) => u === '/oauth/client.json').length;
    expect(fetched).toBeGreaterThanOrEqual(1);

    // A second authorization of the same client is served from the cache.
    await tokens(client, open, 'transfers:read', ['transfers:read']);
    expect(assistantFetches.filter((u) => u === '/oauth/client.json').length).toBe(fetched);

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), t.refresh_token!, insecure));
    expect((await me(refreshed.access_token)).status).toBe(200);
    // Connected apps names it by its id, whose host is the identity the owner can trust (the document's name is only its claim).
    const listed = (await (await open('/api/dashboard/connected-apps')).json()) as { apps: { client: { id: string; name: string | null } }[] };
    expect(listed.apps.map((a) => a.client)).toContainEqual({ id: client.client_id, name: null });
  });

  it('refuses a document that is too large, whose client_id is not its own URL, at a forbidden address, or over plain http', async () => {
    const refusal = async (client: oauth.Client) => {
      const res = await fetch(await authorizeUrl(client, { scope: 'transfers:read', state: 's', resource: `${issuer}/mcp`, verifier: oauth.generateRandomCodeVerifier() }), { redirect: 'manual' });
      expect(res.headers.get('location') ?? '').not.toMatch(/^\/oauth\/consent\//);
      return { status: res.status, error: ((await res.json()) as { error: string }).error };
    };
    const huge = metadataClient('/oauth/huge.json', { client_name: 'x'.repeat(6000) });
    expect(await refusal(huge)).toEqual({ status: 400, error: 'invalid_client' });
    expect(assistantFetches).toContain('/oauth/huge.json');

    const impostor = metadataClient('/oauth/impostor.json');
    assistantDocs.set('/oauth/impostor.json', JSON.stringify({ ...JSON.parse(assistantDocs.get('/oauth/impostor.json')!), client_id: `${assistantOrigin}/oauth/client.json` }));
    expect(await refusal(impostor)).toEqual({ status: 400, error: 'invalid_client_metadata' });

    // Names that resolve nowhere allowed (here: nowhere at all), and private addresses, are never connected to.
    const before = assistantFetches.length;
    expect(await refusal({ client_id: 'https://elsewhere.example.test/client.json' })).toEqual({ status: 400, error: 'invalid_client' });
    expect(await refusal({ client_id: 'https://10.0.0.7/client.json' })).toEqual({ status: 400, error: 'invalid_client' });
    expect(await refusal({ client_id: `http://127.0.0.1:${(assistantSite.address() as net.AddressInfo).port}/oauth/client.json` })).toMatchObject({ status: 400 });
    expect(assistantFetches.length).toBe(before);
  });

  it('refuses a document whose redirect URI is plain http off loopback, never sending the owner to consent', async () => {
    const client = metadataClient('/oauth/plain-http.json', { redirect_uris: ['http://evil.example/cb'] });
    const url = new URL(await authorizeUrl(client, { scope: 'transfers:read', state: 's', resource: `${issuer}/mcp`, verifier: oauth.generateRandomCodeVerifier() }));
    url.searchParams.set('redirect_uri', 'http://evil.example/cb');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(assistantFetches).toContain('/oauth/plain-http.json');
  });
});

describe('an operator who turned dynamic registration off', () => {
  let closed: TestServer;
  let closedIssuer: string;
  beforeAll(async () => {
    const port = await freePort();
    closedIssuer = `http://127.0.0.1:${port}`;
    closed = await startTestServer({ PORT: String(port), PUBLIC_URL: closedIssuer, OAUTH_DYNAMIC_REGISTRATION: '0', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '4' });
  });
  afterAll(() => closed.stop());

  it('advertises no registration endpoint and answers it 404; the OAuth endpoints count against the anonymous per-address limit', async () => {
    const metadata = (await (await fetch(`${closedIssuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(closedIssuer);
    expect(metadata).not.toHaveProperty('registration_endpoint');
    const registerOnce = () => fetch(`${closedIssuer}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri] }) });
    expect((await registerOnce()).status).toBe(404);
    expect((await registerOnce()).status).toBe(404);
    expect((await registerOnce()).status).toBe(404);
    const limited = await registerOnce();
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});

