import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Configuration, errors as oidcErrors, KoaContextWithOIDC } from 'oidc-provider';
import { scopes as apiScopes, sendScope } from '../../contract/scopes.js';
import { serverSettings, users, workspaces } from '../db/schema/index.js';
import type { Database } from '../db/connection.js';
import { safeRequest } from '../net/safe-request.js';
import type { Services } from '../services.js';
import { sharedSecret } from '../settings.js';
import { isActiveWorkspace } from '../workspaces/active.js';
import { oauthAdapter } from './adapter.js';

/** What an assistant may ask for: the API's scopes, and emailing recipients. */
export const oauthScopes: readonly string[] = [...apiScopes, sendScope];

/** The resources a token may be for (RFC 8707): the MCP server, or the API itself. */
export function oauthResources(publicUrl: string) {
  return { mcp: `${publicUrl}/mcp`, api: `${publicUrl}/api/v1` };
}

/**
 * Where a protected resource's RFC 9728 metadata is served: the well-known path inserted between the
 * origin and the resource's own path (§3.1), so the document names the resource it was fetched for.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
}

export const OAUTH_ACCESS_TOKEN_PREFIX = 'oat_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'ort_';

/** The authorization server's paths, all under /oauth so the rest of the app's namespace stays ours. */
export const OAUTH_PREFIX = '/oauth';
export const consentPath = (uid: string) => `${OAUTH_PREFIX}/consent/${uid}`;

const CLIENT_METADATA_LIMIT = 5120;

/** The hosts a plain-http redirect URI may name: the client's own machine (RFC 8252 §7.3). */
const LOOPBACK_REDIRECT_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * OAuth 2.1 (§2.3.1, §8.4.2): a redirect URI carries the code, so over plain http it may only lead
 * back to the client's own machine. Returns the first redirect URI that breaks this, if any; other
 * schemes (https, a native app's own) are left to the provider's checks.
 */
export function insecureRedirectUri(uris: unknown): string | undefined {
  if (!Array.isArray(uris)) return undefined;
  return uris.find((uri): uri is string => {
    if (typeof uri !== 'string') return false;
    const parsed = URL.parse(uri);
    return parsed?.protocol === 'http:' && !LOOPBACK_REDIRECT_HOSTS.has(parsed.hostname);
  });
}

/** The signing key every instance shares. No ID token is ever issued, but the provider insists on having one. */
async function sharedSigningKey(db: Database): Promise<Record<string, unknown>> {
  const make = () => JSON.stringify({ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256', kid: 'k1' });
  await db.insert(serverSettings).values({ key: 'oauth-signing-jwk', value: make() }).onConflictDoNothing();
  const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, 'oauth-signing-jwk'));
  if (!row) throw new Error('server setting oauth-signing-jwk missing');
  return JSON.parse(row.value) as Record<string, unknown>;
}

/**
 * Client ID metadata documents are fetched by our SSRF-safe client (one resolution, every address
 * checked, no redirects, a capped body), not the provider's own.
 */
async function fetchClientMetadata(services: Pick<Services, 'config' | 'outbound'>, url: URL | string): Promise<Response> {
  // A client's metadata lives at an https URL (the client's own id): never plain http, whatever the setting.
  if (URL.parse(String(url))?.protocol !== 'https:') throw new Error('client metadata must be served over https');
  const options = { method: 'GET' as const, headers: { accept: 'application/json' }, timeoutMs: 2500, maxResponseBytes: CLIENT_METADATA_LIMIT + 1 };
  const result = await safeRequest(String(url), { ...options, allowInsecure: services.config.OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK }, services.outbound);
  if (!result.ok) throw new Error(`client metadata could not be fetched: ${result.reason}`);
  if (result.truncated) throw new Error('client metadata is too large');
  return new Response(result.bodyText, { status: result.status, headers: result.headers });
}

/**
 * The OAuth 2.1 authorization server for AI assistants (oidc-provider, pinned: see
 * docs/design/oauth-and-mcp.md for what was measured and why each setting is here). Authorization code
 * with PKCE (S256) and `resource` required (`state` optional: PKCE already binds the code to the client
 * that asked, and some MCP clients send none), exact redirect URIs, `iss` in every response,
 * rotating refresh tokens whose replay revokes the grant, opaque access tokens stored hashed, and every
 * authorization approved by the signed-in owner on the dashboard's consent page.
 */
export interface OAuthServer {
  provider: Provider;
  /** The library's error classes (loaded with it). */
  errors: typeof oidcErrors;
}

export async function createOAuthProvider(services: Pick<Services, 'db' | 'config' | 'outbound'>): Promise<OAuthServer> {
  const { db, config } = services;
  // Loaded on the first OAuth request rather than at start: a server no assistant uses never loads it.
  const { default: Provider, errors, interactionPolicy } = await import('oidc-provider');
  const issuer = config.PUBLIC_URL;
  const resources = new Set(Object.values(oauthResources(issuer)));
  const cookieKey = (await sharedSecret(db, 'oauth-cookie-key')).toString('base64url');

  // Every authorization shows the consent page, whatever the provider's own browser session says: the
  // page requires the dashboard session, and only this request's own approval satisfies the check.
  const { Prompt, Check } = interactionPolicy;
  const policy = [
    new Prompt(
      { name: 'consent', requestable: true },
      new Check('owner_consent', 'the signed-in owner must approve this app', (ctx) =>
        ctx.oidc.result?.consent?.grantId ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    ),
  ];

  const configuration: Configuration = {
    adapter: oauthAdapter(db, errors),
    jwks: { keys: [(await sharedSigningKey(db)) as never] },
    cookies: { keys: [cookieKey], names: { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_resume' } },
    scopes: [...oauthScopes],
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // The key is EC, so the (never used) ID token algorithm must say so or registration is refused.
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    pkce: { required: () => true },
    extraParams: {
      // form_post would answer with a page our Content-Security-Policy (form-action 'self') blocks.
      response_mode(_ctx: KoaContextWithOIDC, value: string | undefined) {
        if (value !== undefined && value !== 'query') throw new errors.InvalidRequest('only response_mode=query is supported');
      },
    },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      registration: `${OAUTH_PREFIX}/register`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      end_session: `${OAUTH_PREFIX}/logout`,
      introspection: `${OAUTH_PREFIX}/introspect`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      code_verification: `${OAUTH_PREFIX}/device`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true },
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: config.OAUTH_DYNAMIC_REGISTRATION === '1', initialAccessToken: false, issueRegistrationAccessToken: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        async defaultResource(_ctx, _client, oneOf) {
          if (oneOf) return oneOf;
          throw new errors.InvalidTarget("missing required parameter 'resource'");
        },
        async getResourceServerInfo(_ctx, resource) {
          if (!resources.has(resource)) throw new errors.InvalidTarget('unknown resource');
          return { scope: oauthScopes.join(' '), audience: resource, accessTokenTTL: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS, accessTokenFormat: 'opaque' };
        },
        async useGrantedResource() {
          return true;
        },
      },
    },
    // Every client's metadata passes here: a registration, a client ID metadata document, a stored client
    // when it is loaded. The library itself lets a web client register any http redirect URI.
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator(_ctx, key, value) {
        if (key !== 'redirect_uris') return;
        const refused = insecureRedirectUri(value);
        if (refused === undefined) return;
        const error = new errors.InvalidRedirectUri();
        error.error_description = `redirect_uris must use https, or http only on a loopback host (127.0.0.1, [::1], localhost): ${refused}`;
        throw error;
      },
    },
    interactions: { url: (_ctx, interaction) => consentPath(interaction.uid), policy },
    // Called again on every refresh: an owner whose account or workspace is gone, or whose workspace the
    // operator disabled, gets no new token (the refresh is refused as invalid_grant).
    async findAccount(_ctx, sub) {
      const [workspaceId, userId] = sub.split('/');
      if (!workspaceId || !userId) return undefined;
      const [row] = await db
        .select({ disabledAt: workspaces.disabledAt })
        .from(users)
        .innerJoin(workspaces, eq(workspaces.id, workspaceId))
        .where(eq(users.id, userId));
      if (!row || !isActiveWorkspace(row)) return undefined;
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: 30 * 24 * 3600,
      Interaction: 600,
      Grant: 365 * 24 * 3600,
      Session: 600,
    },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
    fetch: ((url: URL | string) => fetchClientMetadata(services, url)) as Configuration['fetch'],
    fetchResponseBodyLimits: { 'client_id metadata document': CLIENT_METADATA_LIMIT },
    async renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = config.TRUST_PROXY;
  // No ID token is ever issued (this is OAuth for APIs, not sign-in) and no OpenID configuration is
  // served, so the metadata does not advertise `openid`, which the library always counts among its
  // scopes (the consent page never grants it either: it offers only `oauthScopes`).
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/.well-known/oauth-authorization-server' && ctx.body && typeof ctx.body === 'object') {
      const metadata = ctx.body as { scopes_supported?: string[] };
      metadata.scopes_supported = metadata.scopes_supported?.filter((scope) => scope !== 'openid');
    }
  });
  // Exact redirect URIs, loopback ones included (the library ignores their port, as RFC 8252 §7.3 allows).
  const client = provider.Client.prototype as unknown as { redirectUriAllowed(value: string): boolean; redirectUris: string[] };
  client.redirectUriAllowed = function (value: string) {
    return this.redirectUris.includes(value);
  };
  // Recognisable tokens (secret scanners; resolveCaller tells them from keys by their shape).
  for (const [Model, prefix] of [
    [provider.AccessToken, OAUTH_ACCESS_TOKEN_PREFIX],
    [provider.RefreshToken, OAUTH_REFRESH_TOKEN_PREFIX],
  ] as const) {
    const model = Model.prototype as unknown as { generateTokenId(): string };
    const generate = model.generateTokenId;
    model.generateTokenId = function () {
      return prefix + generate.call(this);
    };
  }
  return { provider, errors };
}
