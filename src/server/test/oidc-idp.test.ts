import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdentityProvider, type TestIdentityProvider } from './oidc-idp.js';

/** The test IdP, used as our relying party will use it (oauth4webapi standing in for openid-client). */

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const ours = { client_id: 'parcel', client_secret: 'parcel-secret', redirect_uris: ['http://127.0.0.1:9/sso/callback'] };
const other = { client_id: 'other-app', client_secret: 'other-secret', redirect_uris: ['http://localhost:9/cb'] };

let idp: TestIdentityProvider;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: ours.client_id };

beforeAll(async () => {
  idp = await startTestIdentityProvider({ clients: [ours, other] });
  const issuer = new URL(idp.issuer);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
});

afterAll(() => idp.close());

/** An authorization as our server starts one: PKCE, state and nonce. */
async function authorization() {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: ours.client_id,
    response_type: 'code',
    redirect_uri: ours.redirect_uris[0]!,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier, state, nonce };
}

/** Signs in as `login` and exchanges the code; the raw token response is returned for checks of its own. */
async function signInAndExchange(login: string, clientAuth = oauth.ClientSecretBasic(ours.client_secret)) {
  const started = await authorization();
  const back = await idp.signIn(started.url.href, login);
  expect(back.origin + back.pathname).toBe(ours.redirect_uris[0]);
  const params = oauth.validateAuthResponse(as, client, back, started.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, ours.redirect_uris[0]!, started.verifier, insecure);
  return { started, response };
}

async function userinfo(accessToken: string, sub: string) {
  return oauth.processUserInfoResponse(as, client, sub, await oauth.userInfoRequest(as, client, accessToken, insecure));
}

/** Checks an ID token's RS256 signature against the provider's published keys. */
async function signedByProvider(idToken: string): Promise<boolean> {
  const [header, payload, signature] = idToken.split('.') as [string, string, string];
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
  const { keys } = (await (await fetch(as.jwks_uri!)).json()) as { keys: Array<JsonWebKey & { kid: string }> };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) return false;
  return verify('sha256', Buffer.from(`${header}.${payload}`), createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(signature, 'base64url'));
}

function claimsOf(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('test identity provider', () => {
  it('publishes an OpenID configuration with code + PKCE (S256) and both client secret methods', () => {
    expect(as.issuer).toBe(idp.issuer);
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(as.response_types_supported).toEqual(['code']);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post']));
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
  });

  it('signs ana in through its login and consent pages; the ID token validates and userinfo has her email', async () => {
    const { started, response } = await signInAndExchange('ana@acme.test');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: started.nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ iss: idp.issuer, aud: ours.client_id, sub: 'ana@acme.test', nonce: started.nonce });
    // conformIdTokenClaims: a code flow's ID token names the person only; the email is the relying party's to fetch.
    expect(claims.email).toBeUndefined();
    expect(await signedByProvider(tokens.id_token!)).toBe(true);
    expect(await userinfo(tokens.access_token, claims.sub)).toEqual({ sub: 'ana@acme.test', email: 'ana@acme.test', email_verified: true, name: 'ana' });
  });

  it('accepts client_secret_post as well, and says an unverified address is unverified', async () => {
    const { started, response } = await signInAndExchange('unverified@acme.test', oauth.ClientSecretPost(ours.client_secret));
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: started.nonce, requireIdToken: true });
    expect(await userinfo(tokens.access_token, 'unverified@acme.test')).toMatchObject({ email: 'unverified@acme.test', email_verified: false });
  });

  it('refuses an authorization without PKCE, back at the redirect URI', async () => {
    const { url } = await authorization();
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const back = await idp.signIn(url.href, 'ana@acme.test');
    expect(back.searchParams.get('error')).toBe('invalid_request');
  });

  it('issues a genuine ID token for another client, and swaps it into the next token response', async () => {
    const { nonce } = await authorization();
    const foreign = await idp.idTokenForClient(other.client_id, nonce, 'ana@acme.test');
    expect(claimsOf(foreign)).toMatchObject({ iss: idp.issuer, aud: other.client_id, sub: 'ana@acme.test', nonce });
    expect(await signedByProvider(foreign)).toBe(true);

    idp.replaceNextIdToken(foreign);
    const swapped = await signInAndExchange('ana@acme.test');
    expect(((await swapped.response.clone().json()) as { id_token: string }).id_token).toBe(foreign);
    // A relying party checking the audience refuses it.
    await expect(oauth.processAuthorizationCodeResponse(as, client, swapped.response, { expectedNonce: swapped.started.nonce })).rejects.toThrow(/aud/);

    // The swap is spent: the next response carries the provider's own token again.
    const next = await signInAndExchange('ana@acme.test');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, next.response, { expectedNonce: next.started.nonce, requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(tokens)!.aud).toBe(ours.client_id);
  });
});
