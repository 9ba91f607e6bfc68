import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createSession, deleteSession, refuseSignIn, refuseUntilCompliant, sessionBody, sessionUser, type Account, type SessionClient } from '../auth/sessions.js';
import { signInWithPasskey } from '../auth/passkeys.js';
import { completeSingleSignOn, SsoRefusal, startSingleSignOn } from '../auth/single-sign-on.js';
import { asksSecondStep, completeSignInChallenge, isTrustedBrowser, openSignInChallenge, trustBrowser, TRUSTED_BROWSER_TTL_MS } from '../auth/two-step.js';
import { ApiError } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { clientAddress } from '../http/headers.js';
import type { AuthKind } from '../http/surface.js';
import { requireRole } from '../workspaces/members.js';
import { said } from '../core/sentences.js';

/** The dashboard session's cookie: what auth/sessions.ts issues, carried by the browser. */
export const SESSION_COOKIE = 'parcel_session';
/** A sign-in waiting for its second step (auth/two-step.ts): ten minutes, sent only to the dashboard API. */
export const SIGN_IN_CHALLENGE_COOKIE = 'parcel_sign_in';
/** A browser the person trusts for 30 days: its sign-ins skip the second step. */
export const TRUSTED_BROWSER_COOKIE = 'parcel_trusted_browser';
/** A WebAuthn challenge (registering a passkey, or signing in with one) waiting for its answer. */
const WEBAUTHN_COOKIE = 'parcel_webauthn';

/** Keeps a WebAuthn challenge's token in its cookie, for the answer's request. */
export function setWebAuthnChallenge(c: Context<AppEnv>, challenge: { token: string; maxAgeSeconds: number }) {
  setCookie(c, WEBAUTHN_COOKIE, challenge.token, cookieOptions(c, '/api/dashboard', challenge.maxAgeSeconds));
}

/** The WebAuthn challenge's token this request carries; the cookie goes, as the challenge is spent. */
export function takeWebAuthnChallenge(c: Context<AppEnv>): string | undefined {
  const token = getCookie(c, WEBAUTHN_COOKIE);
  deleteCookie(c, WEBAUTHN_COOKIE, { path: '/api/dashboard' });
  return token;
}

/** Signs in with a passkey: it counts as both steps, so the session starts at once. */
export async function completePasskeySignIn(c: Context<AppEnv>, credential: unknown) {
  const account = await signInWithPasskey(c.var.services, takeWebAuthnChallenge(c), credential);
  return startSession(c, account, 200);
}

/** The client's address as the dashboard counts it (behind TRUST_PROXY's proxies): for limits and the sessions list. */
export const requestAddress = (c: Context<AppEnv>) => clientAddress(c, c.var.services.config.TRUST_PROXY);

const sessionClient = (c: Context<AppEnv>): SessionClient => ({ userAgent: c.req.header('user-agent') ?? null, address: requestAddress(c) });

const cookieOptions = (c: Context<AppEnv>, path: string, maxAge: number) =>
  ({ httpOnly: true, sameSite: 'Lax', secure: c.var.services.config.PUBLIC_URL.startsWith('https:'), path, maxAge }) as const;

/**
 * Signs the account in (a new session cookie) and answers with the session; a disabled workspace or
 * person is refused. When the person has two-step verification on and this browser is not one they
 * trust, no session is made yet: 401 `second_step_required`, and a challenge cookie that
 * `POST /signin/second-step` completes with a code. Every way of signing in with a password (a
 * reset link's included) comes through here, so none skips the second step.
 */
export async function signInAs(c: Context<AppEnv>, account: Account, status: 200 | 201 = 200) {
  const secondStepUntil = await secondStepDue(c, account);
  if (secondStepUntil) {
    throw new ApiError('unauthorized', said({ id: 'api.dashboard.enterCodeFromAuthenticator', defaultMessage: 'Enter the code from your authenticator app to finish signing in' }), {
      reason: 'second_step_required',
      methods: ['totp', 'recovery_code'],
      expiresAt: secondStepUntil.toISOString(),
    });
  }
  return startSession(c, account, status);
}

/**
 * Whether the account's sign-in must wait for a second step (two-step verification on, in a browser
 * the person does not trust): then the challenge is opened, its cookie set, and its expiry returned.
 * A disabled workspace or person is refused first.
 */
async function secondStepDue(c: Context<AppEnv>, account: Account): Promise<Date | null> {
  const { services } = c.var;
  refuseSignIn(account);
  if (!asksSecondStep(account.user) || (await isTrustedBrowser(services, account.user.id, getCookie(c, TRUSTED_BROWSER_COOKIE)))) return null;
  const { token, expiresAt, maxAgeSeconds } = await openSignInChallenge(services, account);
  setCookie(c, SIGN_IN_CHALLENGE_COOKIE, token, cookieOptions(c, '/api/dashboard', maxAgeSeconds));
  return expiresAt;
}

/** The second step's answer: the session the challenge waited for, and (if asked) this browser trusted for 30 days. */
export async function completeSecondStep(c: Context<AppEnv>, input: { code: string; trustBrowser: boolean }) {
  const { services } = c.var;
  const account = await completeSignInChallenge(services, getCookie(c, SIGN_IN_CHALLENGE_COOKIE), input.code, requestAddress(c));
  deleteCookie(c, SIGN_IN_CHALLENGE_COOKIE, { path: '/api/dashboard' });
  if (input.trustBrowser) setCookie(c, TRUSTED_BROWSER_COOKIE, await trustBrowser(services, account.user.id), cookieOptions(c, '/api/dashboard', TRUSTED_BROWSER_TTL_MS / 1000));
  return startSession(c, account, 200);
}

/** The new session's cookie, and the person as the session sees them. */
async function openSession(c: Context<AppEnv>, account: Account) {
  const { token, user } = await createSession(c.var.services, account, sessionClient(c));
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, '/', c.var.services.config.SESSION_TTL_SECONDS));
  return user;
}

async function startSession(c: Context<AppEnv>, account: Account, status: 200 | 201) {
  return c.json(sessionBody(await openSession(c, account), c.var.services.config), status);
}

/** A single sign-on waiting for the browser to come back from the identity provider (ten minutes). */
const SSO_COOKIE = 'parcel_sso';
const SSO_COOKIE_PATH = '/api/dashboard/signin/sso';

/** A browser navigation back into the app (never elsewhere: the paths are this module's own). */
function backToApp(c: Context<AppEnv>, path: `/${string}`) {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(path, 303);
}

/** Sends the browser to the identity provider (303), the sign-in's state, nonce and PKCE verifier kept behind a cookie. */
export async function leaveForProvider(c: Context<AppEnv>, providerId: string) {
  try {
    const { authorizationUrl, token, maxAgeSeconds } = await startSingleSignOn(c.var.services, providerId);
    setCookie(c, SSO_COOKIE, token, cookieOptions(c, SSO_COOKIE_PATH, maxAgeSeconds));
    c.header('Cache-Control', 'no-store');
    return c.redirect(authorizationUrl, 303);
  } catch (err) {
    return backRefused(c, err);
  }
}

/**
 * The identity provider sends the browser back here: the person is signed in (or asked for their
 * second step) and lands in the app; every refusal lands on the sign-in page, which says why in its
 * own words (nothing the provider said is shown).
 */
export async function returnFromProvider(c: Context<AppEnv>) {
  const token = getCookie(c, SSO_COOKIE);
  deleteCookie(c, SSO_COOKIE, { path: SSO_COOKIE_PATH });
  try {
    const { account, providerId } = await completeSingleSignOn(c.var.services, token, new URL(c.req.url).search);
    const signingIn = { ...account, ssoProviderId: providerId };
    if (await secondStepDue(c, signingIn)) return backToApp(c, '/signin?second_step=1');
    await openSession(c, signingIn);
    return backToApp(c, '/');
  } catch (err) {
    return backRefused(c, err);
  }
}

/** A refused single sign-on (a disabled person or workspace too) lands on the sign-in page with its reason; what went wrong is logged. */
function backRefused(c: Context<AppEnv>, err: unknown) {
  const refusal = err instanceof SsoRefusal ? err : err instanceof ApiError && err.status === 403 ? new SsoRefusal('disabled', err.message) : null;
  if (!refusal) throw err;
  c.var.services.log.warn({ reason: refusal.reason, detail: refusal.detail }, 'single sign-on refused');
  return backToApp(c, `/signin?sso_error=${refusal.reason}`);
}

export async function endSession(c: Context<AppEnv>): Promise<void> {
  const value = getCookie(c, SESSION_COOKIE);
  if (value) await deleteSession(c.var.services, value);
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}

/** A signed-in person, whatever their workspace requires of them: for the few routes that let them comply. */
const requireSignedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = await sessionUser(c.var.services, getCookie(c, SESSION_COOKIE), sessionClient(c));
  if (!user) throw new ApiError('unauthorized', said({ id: 'api.dashboard.signContinue', defaultMessage: 'Sign in to continue' }));
  c.set('user', user);
  await next();
};

/** A signed-in person who meets what their workspace requires (two-step verification, where it is required). */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) =>
  requireSignedIn(c, async () => {
    refuseUntilCompliant(c.var.user);
    await next();
  });

/** The workspace's settings, keys and people are its owner's and admins' (docs/teams.md). */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireRole(c.var.user, 'admin');
  await next();
};

const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user.isOperator) throw new ApiError('forbidden', said({ id: 'api.dashboard.onlyOperatorServerDo', defaultMessage: 'Only the operator of this server can do this' }));
  await next();
};

/**
 * For a bearer credential (an API key, an OAuth token, even the dashboard's own short-lived
 * token) the vault does not exist: every path answers exactly what an unknown /api path answers,
 * before the session is even looked at, so a key learns nothing, not even that a vault is here.
 */
const cookieOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header('authorization') !== undefined) throw new ApiError('not_found', said({ id: 'api.dashboard.noEndpoint', defaultMessage: 'No endpoint {method} {path}', description: 'method: the HTTP method (GET, POST…); path: the path asked for' }, { method: c.req.method, path: c.req.path }));
  await next();
};

/**
 * The session cookie is SameSite=Lax; on top of that, state-changing dashboard requests must come
 * from the app's own origin, which browsers always state in `Origin` on such requests.
 */
export const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (origin && origin !== own && origin !== new URL(c.var.services.config.PUBLIC_URL).origin) {
      throw new ApiError('forbidden', said({ id: 'api.dashboard.crossSiteRequestsDashboard', defaultMessage: 'Cross-site requests to the dashboard are not allowed' }));
    }
  }
  await next();
};

/** Who may call a dashboard route. Every state change also comes from the app's own origin (sameOriginOnly, on the whole surface). */
export const dashboardAuth = {
  anyone: { middleware: [], description: 'Anyone: no session needed.', security: [] },
  session: {
    middleware: [requireSession],
    description:
      'A signed-in session (the `parcel_session` cookie). 403 `two_step_required` while the workspace requires two-step verification the person has not turned on; 403 `single_sign_on_required` while it requires single sign-on and the session was signed in another way.',
    security: [{ session: [] }],
  },
  self: {
    middleware: [requireSignedIn],
    description: 'A signed-in session, also one whose workspace requires two-step verification (or single sign-on) the person has not met yet: this is how they do.',
    security: [{ session: [] }],
  },
  admin: {
    middleware: [requireSession, requireAdmin],
    description: 'A signed-in owner or admin of the workspace; 403 `forbidden` (reason `role_required`) for a member.',
    security: [{ session: [] }],
  },
  operator: { middleware: [requireSession, requireOperator], description: "The server's operator, signed in; 403 `forbidden` for anyone else.", security: [{ session: [] }] },
  holder: {
    middleware: [cookieOnly, requireSession],
    description: 'The signed-in person, by the session cookie alone: a request carrying an Authorization header is 404, whatever it holds.',
    security: [{ session: [] }],
  },
} satisfies Record<string, AuthKind>;

export const dashboardSecuritySchemes = {
  session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by signing in (HttpOnly, SameSite=Lax).' },
} as const;
