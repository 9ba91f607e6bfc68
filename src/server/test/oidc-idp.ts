import { generateKeyPairSync, randomBytes, createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Configuration } from 'oidc-provider';

/**
 * A real OpenID Connect identity provider (oidc-provider, the library's own login and consent pages)
 * on loopback, for the single sign-on tests: our server signs people in through it exactly as it
 * would through a company's IdP. In-memory, one instance per call, nothing shared between instances.
 */
export interface TestIdentityProvider {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  issuer: string;
  close(): Promise<void>;
  /**
   * Drives the provider's own login + consent pages headlessly (fetch + a cookie jar of its own) for the
   * authorization URL our server redirected a browser to; signs in as `login` (also the email claim).
   * Returns the URL the provider redirects to at the end (the relying party's redirect_uri with code & state,
   * or error), NOT followed.
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  /**
   * A genuine ID token signed by this provider for another registered client (audience = otherClientId), with
   * the given nonce, obtained by running a real code flow as that client (with PKCE) and exchanging the code.
   */
  idTokenForClient(otherClientId: string, nonce: string, login: string): Promise<string>;
  /** The next successful token endpoint response has its id_token replaced by this one (then the swap is forgotten). */
  replaceNextIdToken(idToken: string): void;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

const TOKEN_PATH = '/token';
/** Marks this module's own token requests (idTokenForClient), which must not spend a pending ID token swap. */
const OWN_REQUEST_HEADER = 'x-test-idp-own-request';
/** More hops than a login + consent round trip takes; reaching it means the flow loops. */
const MAX_STEPS = 20;

export async function startTestIdentityProvider(options: { clients: TestClient[] }): Promise<TestIdentityProvider> {
  // The issuer names the port, so the server listens before the provider exists and forwards to it once made.
  let handle: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    alg: 'RS256',
    use: 'sig',
    kid: randomBytes(8).toString('hex'),
  };

  const configuration: Configuration = {
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      // The library accepts client_secret_post from a client registered for client_secret_basic (and
      // the reverse): both are "a shared secret", so one registration serves either relying party setup.
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    responseTypes: ['code'],
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Confidential clients need no PKCE by default; a relying party that forgot it must fail here as it would at a strict IdP.
    pkce: { required: () => true },
    findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified'), name: id.split('@')[0] }),
      };
    },
    features: {
      devInteractions: { enabled: true },
      userinfo: { enabled: true },
    },
    // Set explicitly only so the library does not print a notice for each default it falls back to.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    async renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
  };

  const provider = await withoutProviderNotices(async () => {
    const { default: Provider } = await import('oidc-provider');
    return new Provider(issuer, configuration);
  });

  let pendingIdToken: string | undefined;
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method === 'POST' && ctx.path === TOKEN_PATH && ctx.status === 200 && pendingIdToken !== undefined && !ctx.get(OWN_REQUEST_HEADER)) {
      const body = ctx.body as { id_token?: unknown } | undefined;
      if (typeof body?.id_token === 'string') {
        body.id_token = pendingIdToken;
        pendingIdToken = undefined;
      }
    }
    // The dev pages' stylesheet imports a Google font: a browser test would reach out to the internet
    // (and wait on a network that drops packets) just to draw the login form.
    if (typeof ctx.body === 'string' && ctx.response.is('html')) {
      ctx.body = ctx.body.replace(/@import url\(https:\/\/fonts\.googleapis\.com[^)]*\);?/g, '');
    }
  });
  handle = provider.callback();

  const clientsById = new Map(options.clients.map((client) => [client.client_id, client]));

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new CookieJar();
    let url = new URL(authorizationUrl);
    let init: RequestInit = {};
    for (let step = 0; step < MAX_STEPS; step++) {
      if (url.origin !== issuer) return url;
      const response = await jar.fetch(url, init);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        url = new URL(location, url);
        init = {};
        continue;
      }
      const page = await response.text();
      if (response.status !== 200) throw new Error(`identity provider: ${response.status} at ${url.pathname}: ${page}`);
      // An interaction page: the login form, or the consent form, each posting to the page's own submit URL.
      const form = parseInteractionForm(page);
      if (!form) throw new Error(`identity provider: no login or consent form at ${url.pathname}: ${page.slice(0, 500)}`);
      const fields: Record<string, string> =
        // The dev login accepts any password: it only records `login` as the account id.
        form.prompt === 'login' ? { prompt: 'login', login, password: 'any password' } : { prompt: 'consent' };
      url = new URL(form.action, url);
      init = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
    }
    throw new Error(`identity provider: no redirect out of ${issuer} after ${MAX_STEPS} steps`);
  }

  async function idTokenForClient(otherClientId: string, nonce: string, login: string): Promise<string> {
    const client = clientsById.get(otherClientId);
    if (!client) throw new Error(`identity provider: no client ${otherClientId} registered`);
    const redirectUri = client.redirect_uris[0];
    if (!redirectUri) throw new Error(`identity provider: client ${otherClientId} has no redirect URI`);
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const authorization = new URL('/auth', issuer);
    authorization.search = new URLSearchParams({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();

    const back = await signIn(authorization.href, login);
    const code = back.searchParams.get('code');
    if (!code || back.searchParams.get('state') !== state) throw new Error(`identity provider: authorization for ${otherClientId} failed: ${back.href}`);

    const response = await fetch(new URL(TOKEN_PATH, issuer), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${formEncode(client.client_id)}:${formEncode(client.client_secret)}`).toString('base64')}`,
        [OWN_REQUEST_HEADER]: '1',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
    });
    const tokens = (await response.json()) as { id_token?: string };
    if (response.status !== 200 || !tokens.id_token) throw new Error(`identity provider: token exchange for ${otherClientId}: ${response.status} ${JSON.stringify(tokens)}`);
    return tokens.id_token;
  }

  return {
    issuer,
    signIn,
    idTokenForClient,
    replaceNextIdToken(idToken: string) {
      pendingIdToken = idToken;
    },
    async close() {
      // Keep-alive sockets (of fetch, of a browser) would hold close() open until they time out.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** RFC 6749 §2.3.1: HTTP Basic client credentials are form-encoded before base64. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The dev interaction page's form: its hidden `prompt` field (login or consent) and where it posts. */
function parseInteractionForm(page: string): { prompt: 'login' | 'consent'; action: string } | undefined {
  const prompt = /<input type="hidden" name="prompt" value="(login|consent)"\/>/.exec(page)?.[1];
  const action = /<form[^>]*\saction="([^"]+)"/.exec(page)?.[1];
  if (!action || (prompt !== 'login' && prompt !== 'consent')) return undefined;
  return { prompt, action: action.replaceAll('&amp;', '&') };
}

/**
 * A browser's cookies for one origin: the provider scopes its interaction cookies by path
 * (`/interaction/<uid>`, `/auth/<uid>`), and clears them by expiring them.
 */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  async fetch(url: URL, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const sent = [...this.cookies].filter(([, cookie]) => url.pathname.startsWith(cookie.path));
    if (sent.length > 0) headers.set('cookie', sent.map(([name, cookie]) => `${name}=${cookie.value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) this.store(header);
    return response;
  }

  private store(header: string) {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const at = pair.indexOf('=');
    if (at <= 0) return;
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    let path = '/';
    let expired = value === '';
    for (const attribute of attributes) {
      const [key = '', attributeValue = ''] = attribute.split('=');
      const lower = key.toLowerCase();
      if (lower === 'path' && attributeValue) path = attributeValue;
      if (lower === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
      if (lower === 'max-age' && Number(attributeValue) <= 0) expired = true;
    }
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, { value, path });
  }
}

/**
 * The library prints warnings when it is loaded on Node 20 and when it starts with dev interactions and
 * its in-memory store: exactly what a test IdP wants, so they are noise in test output. Only those
 * lines are dropped, and only while the provider loads and starts (a counter, so starts that overlap
 * restore the console once, after the last).
 */
let quietDepth = 0;
let loudConsole: { warn: typeof console.warn; info: typeof console.info } | undefined;

async function withoutProviderNotices<T>(start: () => Promise<T>): Promise<T> {
  if (quietDepth++ === 0) {
    const loud = { warn: console.warn, info: console.info };
    loudConsole = loud;
    const isProviderStartNotice = (args: unknown[]) =>
      typeof args[0] === 'string' && /oidc-provider (WARNING|NOTICE): (Unsupported runtime|a quick start development-only)/.test(args[0]);
    console.warn = (...args: unknown[]) => {
      if (!isProviderStartNotice(args)) loud.warn(...args);
    };
    console.info = (...args: unknown[]) => {
      if (!isProviderStartNotice(args)) loud.info(...args);
    };
  }
  try {
    return await start();
  } finally {
    if (--quietDepth === 0 && loudConsole) {
      console.warn = loudConsole.warn;
      console.info = loudConsole.info;
      loudConsole = undefined;
    }
  }
}
