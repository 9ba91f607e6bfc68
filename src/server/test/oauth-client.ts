import net from 'node:net';
import * as oauth from 'oauth4webapi';

/**
 * An AI assistant's side of the OAuth flow for tests that need a real access token: discovery,
 * dynamic registration, authorization with PKCE approved on the dashboard's consent routes by the
 * signed-in owner, and code → token, all through the server's HTTP endpoints with oauth4webapi.
 * The server's PUBLIC_URL must be the address the client reaches (the issuer), so such a server
 * listens on a port chosen up front (`freePort`).
 */

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT_URI = 'http://127.0.0.1:9999/callback';

/** A free loopback port, for a server whose PUBLIC_URL must name its own port. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export type Browser = ((url: string, init?: RequestInit) => Promise<Response>) & { cookies: Map<string, string> };

/** A browser's cookie jar on `origin` that follows no redirect, so each step's answer can be read. */
export function browser(origin: string): Browser {
  const cookies = new Map<string, string>();
  const open = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, origin), { ...init, headers, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (value) cookies.set(name, value);
      else cookies.delete(name);
    }
    return res;
  };
  return Object.assign(open, { cookies });
}

/** A browser signed in to the dashboard as the owner (`parcel_session` in its jar). */
export async function signedInBrowser(origin: string, owner: { email: string; password: string }): Promise<Browser> {
  const open = browser(origin);
  const res = await open('/api/dashboard/signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(owner) });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return open;
}

async function discover(issuer: string) {
  return oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...insecure }));
}

async function registerClient(as: oauth.AuthorizationServer, name: string): Promise<oauth.Client> {
  const metadata = {
    client_name: name,
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  };
  const registered = await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(as, metadata, insecure));
  return { client_id: registered.client_id };
}

/** Starts an authorization in the owner's browser; returns the consent page's path and what the client keeps. */
async function startAuthorization(as: oauth.AuthorizationServer, client: oauth.Client, open: Browser, scope: string, resource: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = {
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope,
    state,
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const start = await open(url.href);
  const consent = start.headers.get('location');
  if (start.status !== 303 || !consent) throw new Error(`authorize: ${start.status} ${await start.text()}`);
  return { consent, verifier, state };
}

export interface OAuthTokens {
  accessToken: string;
  /** The path of the consent page of an authorization left unanswered (`/oauth/consent/<uid>`). */
  pendingConsent: string;
}

/**
 * An access token for `resource` holding `scopes`, approved by the owner in full, from a client
 * registered for the purpose; and a second authorization of the same owner left waiting on its
 * consent page (an interaction of theirs that nobody else may answer).
 */
export async function oauthTokens(
  issuer: string,
  owner: { email: string; password: string },
  scopes: readonly string[],
  resource: string,
): Promise<OAuthTokens> {
  const as = await discover(issuer);
  const client = await registerClient(as, `Assistant of ${owner.email}`);
  const open = await signedInBrowser(issuer, owner);
  const scope = scopes.join(' ');
  const { consent, verifier, state } = await startAuthorization(as, client, open, scope, resource);
  const decided = await open(consent, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: issuer },
    body: JSON.stringify({ approve: true, scopes }),
  });
  if (decided.status !== 200) throw new Error(`consent: ${decided.status} ${await decided.text()}`);
  const { redirectTo } = (await decided.json()) as { redirectTo: string };
  const back = new URL((await open(redirectTo)).headers.get('location')!);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, {
    additionalParameters: { resource },
    ...insecure,
  });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  const pending = await startAuthorization(as, client, open, scope, resource);
  return { accessToken: tokens.access_token, pendingConsent: pending.consent };
}
