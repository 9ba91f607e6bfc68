import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context } from 'hono';
import type Provider from 'oidc-provider';
import { ConsentDecisionSchema, type ConsentDetails } from '../../contract/oauth.js';
import { ApiError } from '../core/errors.js';
import { requireSession, sameOriginOnly } from '../dashboard/session.js';
import type { AppEnv } from '../http/env.js';
import { clientAddress } from '../http/headers.js';
import { securityHeaderValues } from '../http/middleware/security-headers.js';
import { chargeAnonymous } from '../ratelimit/buckets.js';
import { parseJsonBody } from '../http/validate.js';
import type { Services } from '../services.js';
import { accountIdOf } from './grants.js';
import { createOAuthProvider, OAUTH_PREFIX, oauthResources, oauthScopes, protectedResourceMetadataUrl, type OAuthServer } from './provider.js';
import { said } from '../core/sentences.js';

/** What the provider's helpers throw for a stale, answered or foreign interaction: gone (404), not a server error. */
function asApiError(server: OAuthServer, error: unknown): never {
  if (error instanceof server.errors.OIDCProviderError) {
    throw new ApiError('not_found', said({ id: 'api.oauth.authorizationRequestExpiredAnswered', defaultMessage: 'This authorization request has expired, was answered already, or belongs to another browser. Start again from the app.' }));
  }
  throw error;
}

/**
 * The OAuth authorization server's routes (see provider.ts): its own endpoints under /oauth and the
 * RFC 8414 metadata, handed to oidc-provider on the same Node server; the RFC 9728 metadata of the MCP
 * server; and the two JSON routes the dashboard's consent page calls, which need the dashboard session.
 */
export function oauthRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  // The provider's Node request handler is made once with it (Koa composes its middleware in `callback()`).
  let server: Promise<OAuthServer & { handle: ReturnType<Provider['callback']> }> | null = null;
  const getServer = () =>
    (server ??= createOAuthProvider(services).then(
      (made) => ({ ...made, handle: made.provider.callback() }),
      (error: unknown) => {
        server = null;
        throw error;
      },
    ));

  // The provider (a Koa app) writes the response itself: our headers go on first, and the request's
  // outcome is known to the outer middleware (logs) once it is sent.
  const handOver = async (c: Context<AppEnv>) => {
    // Registration, authorization and tokens are anonymous requests: the per-address limit holds (a 429 before the provider sees it).
    await chargeAnonymous(services, clientAddress(c, services.config.TRUST_PROXY));
    const { handle } = await getServer();
    return new Promise<Response>((resolve) => {
      const res = c.env.outgoing;
      res.once('close', () => resolve(RESPONSE_ALREADY_SENT));
      for (const [name, value] of Object.entries(securityHeaderValues)) res.setHeader(name, value);
      res.setHeader('X-Request-Id', c.var.requestId);
      void handle(c.env.incoming, res);
    });
  };

  const issuer = services.config.PUBLIC_URL;
  const resources = oauthResources(issuer);
  // RFC 9728: each protected resource's metadata at its own path-suffixed address, naming that resource
  // (a strict client discards a document whose resource is not the one it asked about). Nothing at the
  // bare well-known path: the server's origin itself is not a protected resource.
  const resourceNames = { mcp: 'MCP server', api: 'Parcel API v1' } as const;
  for (const [kind, resource] of Object.entries(resources) as [keyof typeof resources, string][]) {
    app.get(new URL(protectedResourceMetadataUrl(resource)).pathname, (c) => {
      c.header('Access-Control-Allow-Origin', '*');
      return c.json({
        resource,
        authorization_servers: [issuer],
        scopes_supported: oauthScopes,
        bearer_methods_supported: ['header'],
        resource_name: resourceNames[kind],
        ...(kind === 'api' ? { resource_documentation: `${issuer}/docs/api` } : {}),
      });
    });
  }
  app.get('/.well-known/oauth-authorization-server', handOver);

  app.get(`${OAUTH_PREFIX}/consent/:uid/details`, requireSession, async (c) => {
    const oauth = await getServer();
    const p = oauth.provider;
    const details = await p.interactionDetails(c.env.incoming, c.env.outgoing).catch((e: unknown) => asApiError(oauth, e));
    if (details.uid !== c.req.param('uid')) throw new ApiError('not_found', said({ id: 'api.oauth.noSuchAuthorizationRequest', defaultMessage: 'No such authorization request' }));
    const clientId = String(details.params.client_id);
    const client = await p.Client.find(clientId);
    if (!client) throw new ApiError('not_found', said({ id: 'api.oauth.appRegisteredAnyMore', defaultMessage: 'This app is not registered any more' }));
    const redirectUri = String(details.params.redirect_uri);
    const body: ConsentDetails = {
      client: { id: client.clientId, name: client.clientName ?? null, uri: client.clientUri ?? null },
      redirectUri,
      redirectHost: URL.parse(redirectUri)?.host ?? redirectUri,
      resource: String(details.params.resource),
      scopes: String(details.params.scope ?? '')
        .split(' ')
        .filter((s) => oauthScopes.includes(s)),
    };
    return c.json(body);
  });

  app.post(`${OAUTH_PREFIX}/consent/:uid`, sameOriginOnly, requireSession, async (c) => {
    const decision = await parseJsonBody(c, ConsentDecisionSchema);
    const oauth = await getServer();
    const p = oauth.provider;
    const details = await p.interactionDetails(c.env.incoming, c.env.outgoing).catch((e: unknown) => asApiError(oauth, e));
    if (details.uid !== c.req.param('uid')) throw new ApiError('not_found', said({ id: 'api.oauth.noSuchAuthorizationRequest', defaultMessage: 'No such authorization request' }));
    if (!decision.approve) {
      const redirectTo = await p
        .interactionResult(c.env.incoming, c.env.outgoing, { error: 'access_denied', error_description: 'The owner declined this request' })
        .catch((e: unknown) => asApiError(oauth, e));
      return c.json({ redirectTo });
    }
    const requested = String(details.params.scope ?? '').split(' ').filter(Boolean);
    // The owner may untick scopes, never add one.
    const granted = decision.scopes.filter((s) => requested.includes(s));
    if (granted.length === 0) throw new ApiError('invalid_request', said({ id: 'api.oauth.leaveLeastOnePermission', defaultMessage: 'Leave at least one permission ticked, or decline' }), { fields: [{ path: 'scopes', message: 'choose at least one' }] });
    const resource = String(details.params.resource);
    const user = c.var.user;
    const accountId = accountIdOf(user.workspaceId, user.userId);
    const grant = new p.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addResourceScope(resource, granted.join(' '));
    const refused = requested.filter((s) => !granted.includes(s));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
    const grantId = await grant.save();
    const redirectTo = await p
      .interactionResult(c.env.incoming, c.env.outgoing, { login: { accountId, remember: false }, consent: { grantId } })
      .catch((e: unknown) => asApiError(oauth, e));
    return c.json({ redirectTo });
  });

  // A client that asks for no scope is offered every scope the MCP server's metadata advertises (RFC 6749 §3.3
  // lets the server choose; MCP clients that follow the spec ask for exactly those): the owner unticks the rest.
  app.get(`${OAUTH_PREFIX}/authorize`, async (c) => {
    const incoming = c.env.incoming;
    const url = new URL(incoming.url ?? '/', issuer);
    if (!url.searchParams.get('scope')?.trim()) {
      url.searchParams.set('scope', oauthScopes.join(' '));
      incoming.url = `${url.pathname}${url.search}`;
    }
    return handOver(c);
  });

  // The consent page itself is the web app's (GET /oauth/consent/{uid}); everything else under /oauth is the provider's.
  app.all(`${OAUTH_PREFIX}/*`, async (c, next) => {
    if (c.req.method === 'GET' && /^\/oauth\/consent\/[^/]+$/.test(c.req.path)) return next();
    return handOver(c);
  });
  return app;
}
