import { and, asc, eq, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { SingleSignOnRefusal } from '../../contract/single-sign-on-refusals.js';
import { ApiError, notFound } from '../core/errors.js';
import { newId, randomBase62 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { identityProviders, signInDomains, ssoIdentities, users, workspaces } from '../db/schema/index.js';
import { safeRequest } from '../net/safe-request.js';
import type { Services } from '../services.js';
import { accountIn, findUserById } from '../workspaces/accounts.js';
import { normalizeCustomDomain } from '../workspaces/custom-domain.js';
import { joinThroughSingleSignOn } from '../workspaces/members.js';
import { memberActor, recordActivity } from '../activity/activity.js';
import { keepChallenge, spendChallenge } from './browser-challenges.js';
import { hashPassword } from './passwords.js';
import { deriveKey, seal, unseal } from './sealing.js';
import type { Account, SignedInUser } from './sessions.js';
import { said } from '../core/sentences.js';

/**
 * Single sign-on with OpenID Connect (`openid-client`): the operator sets up identity providers
 * (`npm run admin -- sso add`), a workspace's owner or admins tie their email domain to one, and a
 * person signing in through it with a verified address on that domain is matched to their account
 * (or gets one) and joins the workspace as a member, just in time. Authorization code flow with
 * PKCE (S256), `state` and `nonce`; the ID token's signature, issuer, audience and nonce are checked
 * by the library against the provider's own keys. Every request to a provider goes through the
 * server's SSRF-safe client (one resolution, every address checked at connect time, no redirects).
 */

type SsoServices = Pick<Services, 'db' | 'clock' | 'config' | 'outbound' | 'sealingKey'>;
type ProviderRow = typeof identityProviders.$inferSelect;

/** Time from leaving for the provider to coming back: a person may have to type a password and a code there. */
const SIGN_IN_TTL_MS = 10 * 60_000;
/** A provider's metadata and keys are read again at most this often. */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** The largest answer read from a provider (metadata, keys, tokens, userinfo). */
const MAX_PROVIDER_RESPONSE_BYTES = 256 * 1024;
const PROVIDER_TIMEOUT_MS = 10_000;

/** Where providers send people back; the operator registers this address with each provider. */
export const callbackPath = '/api/dashboard/signin/sso/callback';
export const callbackUrl = (config: Pick<Services['config'], 'PUBLIC_URL'>) => new URL(callbackPath, config.PUBLIC_URL).toString();

const secretKey = (sealingKey: Buffer) => deriveKey(sealingKey, 'sso-client-secrets');
const sealContext = (providerId: string) => `sso-client-secret:${providerId}`;

// ---------------------------------------------------------------------------------------------
// The operator's providers

export interface NewIdentityProvider {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** An issuer URL as providers state it: https (http only with SSO_ALLOW_INSECURE), no query, no fragment, no credentials. */
export function normalizeIssuer(raw: string, allowInsecure: boolean): string {
  const url = URL.parse(raw.trim());
  if (!url || (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:'))) {
    throw new ApiError('invalid_request', said({ id: 'api.auth.issuerMustHttpsUrl', defaultMessage: 'The issuer must be an https URL, such as https://login.example.com/realms/acme' }), { fields: [{ path: 'issuer', message: 'Must be an https URL' }] });
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ApiError('invalid_request', said({ id: 'api.auth.issuerNoQueryFragment', defaultMessage: 'The issuer has no query, fragment or credentials' }), { fields: [{ path: 'issuer', message: 'Must be a plain URL' }] });
  }
  return url.toString().replace(/\/$/, '');
}

/**
 * Sets up an identity provider; its metadata is read first (through the SSRF-safe client), so a
 * wrong issuer is refused now rather than at someone's sign-in.
 */
export async function addIdentityProvider(services: SsoServices, input: NewIdentityProvider) {
  const name = input.name.trim();
  if (!name || name.length > 60) throw new ApiError('invalid_request', said({ id: 'api.auth.nameWhatSignButton', defaultMessage: 'The name is what the sign-in button shows: 1 to 60 characters' }), { fields: [{ path: 'name', message: '1 to 60 characters' }] });
  if (!input.clientId.trim() || !input.clientSecret) throw new ApiError('invalid_request', said({ id: 'api.auth.bothClientIdClient', defaultMessage: 'Both the client id and the client secret the provider gave are needed' }));
  const issuer = normalizeIssuer(input.issuer, services.config.SSO_ALLOW_INSECURE);
  await discover(services, issuer, input.clientId.trim(), input.clientSecret).catch((err: unknown) => {
    throw new ApiError('invalid_request', said({ id: 'api.auth.noOpenIdProvider', defaultMessage: 'No OpenID provider answers at {issuer}: {problem}', description: 'issuer: the address given; problem: what went wrong, as the network or provider said it (English)' }, { issuer, problem: err instanceof Error ? err.message : String(err) }), { fields: [{ path: 'issuer', message: 'No OpenID provider here' }] });
  });
  const id = newId('idp');
  const [row] = await services.db
    .insert(identityProviders)
    .values({ id, name, issuer, clientId: input.clientId.trim(), clientSecretSealed: seal(secretKey(services.sealingKey), input.clientSecret, sealContext(id)), createdAt: services.clock.now() })
    .returning();
  return providerBody(row!);
}

const providerBody = (row: ProviderRow) => ({ id: row.id, name: row.name, issuer: row.issuer, clientId: row.clientId, createdAt: row.createdAt.toISOString() });

export async function listIdentityProviders(db: Pick<Database, 'select'>) {
  const rows = await db.select().from(identityProviders).orderBy(asc(identityProviders.createdAt));
  return rows.map(providerBody);
}

/**
 * Removes a provider: the domains tied to it are untied, its sessions no longer count as single
 * sign-on, and a workspace left with no domain stops requiring it (nobody could comply).
 */
export async function removeIdentityProvider(db: Database, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx.delete(identityProviders).where(eq(identityProviders.id, id)).returning({ id: identityProviders.id });
    await tx
      .update(workspaces)
      .set({ requireSingleSignOn: false })
      .where(and(eq(workspaces.requireSingleSignOn, true), sql`not exists (select 1 from ${signInDomains} where ${signInDomains.workspaceId} = ${workspaces.id})`));
    return removed.length > 0;
  });
}

/** The buttons of the sign-in page: every provider, by name. */
export async function signInProviderChoices(db: Pick<Database, 'select'>) {
  const rows = await db.select({ id: identityProviders.id, name: identityProviders.name }).from(identityProviders).orderBy(asc(identityProviders.createdAt));
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Talking to a provider

/** openid-client's fetch, answered by the SSRF-safe client: the same checks as webhooks and URL imports. */
function providerFetch(services: Pick<SsoServices, 'config' | 'outbound'>): oidc.CustomFetch {
  return async (url, options) => {
    const method = options.method === 'POST' ? 'POST' : 'GET';
    const body = options.body === undefined || options.body === null ? undefined : String(options.body);
    const result = await safeRequest(
      url,
      {
        method,
        headers: options.headers,
        ...(body !== undefined ? { body } : {}),
        timeoutMs: PROVIDER_TIMEOUT_MS,
        allowInsecure: services.config.SSO_ALLOW_INSECURE,
        maxResponseBytes: MAX_PROVIDER_RESPONSE_BYTES + 1,
      },
      services.outbound,
    );
    if (!result.ok) throw new Error(`the identity provider could not be reached at ${new URL(url).origin}: ${result.reason}`);
    if (result.truncated) throw new Error('the identity provider answered more than this server reads');
    return new Response(result.bodyText, { status: result.status, headers: result.headers });
  };
}

const discovered = new Map<string, { at: number; configuration: oidc.Configuration }>();

/** Reads the provider's metadata (`${issuer}/.well-known/openid-configuration`): its configuration for this client. */
async function discover(services: Pick<SsoServices, 'config' | 'outbound'>, issuer: string, clientId: string, clientSecret: string) {
  const customFetch = providerFetch(services);
  const configuration = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretPost(clientSecret), {
    [oidc.customFetch]: customFetch,
    ...(services.config.SSO_ALLOW_INSECURE ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  configuration[oidc.customFetch] = customFetch;
  return configuration;
}

/** The provider's configuration, kept ten minutes. */
async function configurationOf(services: SsoServices, provider: ProviderRow): Promise<oidc.Configuration> {
  const key = `${provider.id}\n${provider.issuer}\n${provider.clientId}`;
  const cached = discovered.get(key);
  if (cached && services.clock.now().getTime() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
  const clientSecret = unseal(secretKey(services.sealingKey), provider.clientSecretSealed, sealContext(provider.id));
  if (clientSecret === null) throw new Error(`the client secret of identity provider ${provider.id} cannot be unsealed (was SERVER_SECRET changed?)`);
  const configuration = await discover(services, provider.issuer, provider.clientId, clientSecret);
  if (discovered.size > 100) discovered.clear();
  discovered.set(key, { at: services.clock.now().getTime(), configuration });
  return configuration;
}

/** Why a single sign-on did not sign anyone in: the sign-in page names each in words (app: features/auth). */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: SingleSignOnRefusal,
    /** For the server's log only: never shown (it may come from the provider). */
    readonly detail: string,
  ) {
    super(`single sign-on refused (${reason}): ${detail}`);
  }
}

interface PendingSignIn {
  providerId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Leaves for the provider: the URL to send the browser to, and the challenge its cookie keeps (state, nonce, PKCE verifier). */
export async function startSingleSignOn(services: SsoServices, providerId: string) {
  const [provider] = await services.db.select().from(identityProviders).where(eq(identityProviders.id, providerId));
  if (!provider) throw new SsoRefusal('unavailable', `no identity provider ${providerId}`);
  const configuration = await configurationOf(services, provider).catch((err: unknown) => {
    throw new SsoRefusal('unavailable', err instanceof Error ? err.message : String(err));
  });
  const pending: PendingSignIn = { providerId, state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(services.config),
    scope: 'openid email profile',
    response_type: 'code',
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
  });
  const challenge = await keepChallenge(services, 'single_sign_on', JSON.stringify(pending), { userId: null, ttlMs: SIGN_IN_TTL_MS });
  return { authorizationUrl: authorizationUrl.toString(), ...challenge };
}

/** What the provider vouches for: its subject, and the address only when it says the address is verified. */
interface ProvenIdentity {
  subject: string;
  email: string;
  name: string | null;
}

async function provenIdentity(services: SsoServices, provider: ProviderRow, pending: PendingSignIn, query: string): Promise<ProvenIdentity> {
  const configuration = await configurationOf(services, provider).catch((err: unknown) => {
    throw new SsoRefusal('unavailable', err instanceof Error ? err.message : String(err));
  });
  const current = new URL(callbackUrl(services.config));
  current.search = query;
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(
      configuration,
      current,
      { expectedState: pending.state, expectedNonce: pending.nonce, pkceCodeVerifier: pending.codeVerifier, idTokenExpected: true },
      { redirect_uri: callbackUrl(services.config) },
    );
  } catch (err) {
    // A wrong state, an error from the provider, a spent code, a token for another audience or signed by another key.
    throw new SsoRefusal('refused', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
  const claims = tokens.claims();
  if (!claims) throw new SsoRefusal('refused', 'no ID token');
  let email = typeof claims.email === 'string' ? claims.email : undefined;
  let verified = claims.email_verified;
  let name = typeof claims.name === 'string' ? claims.name : undefined;
  if (email === undefined) {
    // Many providers keep the address to the userinfo endpoint; the library checks it is the same subject.
    const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub).catch((err: unknown) => {
      throw new SsoRefusal('refused', `userinfo: ${err instanceof Error ? err.message : String(err)}`);
    });
    email = typeof info.email === 'string' ? info.email : undefined;
    verified = info.email_verified;
    name ??= typeof info.name === 'string' ? info.name : undefined;
  }
  if (!email || verified !== true) throw new SsoRefusal('unverified_email', `the provider does not vouch for ${email ?? 'an address'}`);
  return { subject: claims.sub, email: email.trim().toLowerCase(), name: name?.trim().slice(0, 100) || null };
}

/**
 * Comes back from the provider: spends the browser's challenge, exchanges the code and checks the
 * ID token, then finds the person (by the provider's subject; the first time by their verified
 * address on a domain a workspace tied to this provider, or as a new account) and the workspace they
 * land in (the tied one, joined as a member if they were not). Refusals are SsoRefusal.
 */
export async function completeSingleSignOn(services: SsoServices, token: string | undefined, query: string): Promise<{ account: Account; providerId: string }> {
  const spent = await spendChallenge(services, 'single_sign_on', token, null);
  if (!spent) throw new SsoRefusal('expired', 'no pending sign-in for this browser');
  const pending = JSON.parse(spent) as PendingSignIn;
  const [provider] = await services.db.select().from(identityProviders).where(eq(identityProviders.id, pending.providerId));
  if (!provider) throw new SsoRefusal('expired', 'the provider was removed');
  const identity = await provenIdentity(services, provider, pending, query);
  const domain = domainOfAddress(identity.email);
  const [tied] = domain
    ? await services.db
        .select({ workspaceId: signInDomains.workspaceId })
        .from(signInDomains)
        .where(and(eq(signInDomains.domain, domain), eq(signInDomains.providerId, provider.id)))
    : [];
  const knownIdentity = and(eq(ssoIdentities.providerId, provider.id), eq(ssoIdentities.subject, identity.subject));

  const now = services.clock.now();
  // Argon2id is slow on purpose: for someone signing in the first time, the (unusable) password a new
  // account would get is hashed before the lock every new account takes, not under it.
  const [seenBefore] = await services.db.select({ userId: ssoIdentities.userId }).from(ssoIdentities).where(knownIdentity);
  const unusablePassword = seenBefore ? null : hashPassword(randomBase62(43));
  unusablePassword?.catch(() => {});
  const userId = await services.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('parcel:new-account'))`);
    const [known] = await tx.select({ userId: ssoIdentities.userId }).from(ssoIdentities).where(knownIdentity);
    let userId = known?.userId;
    if (!userId) {
      // Only a domain tied to this provider lets it vouch for an address here: nobody else's account is matched.
      if (!tied) throw new SsoRefusal('no_workspace', `no workspace tied ${domain} to ${provider.id}`);
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, identity.email));
      userId = existing?.id;
      if (!userId) {
        userId = newId('usr');
        // No password anyone knows: they sign in through the provider (a password reset can give them one).
        await tx.insert(users).values({ id: userId, email: identity.email, name: identity.name, passwordHash: await (unusablePassword ?? hashPassword(randomBase62(43))), createdAt: now });
      }
      await tx.insert(ssoIdentities).values({ providerId: provider.id, subject: identity.subject, userId, createdAt: now, lastUsedAt: now });
    } else {
      await tx.update(ssoIdentities).set({ lastUsedAt: now }).where(knownIdentity);
    }
    if (tied) {
      const [person] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
      try {
        await joinThroughSingleSignOn(services, tx, tied.workspaceId, { userId, name: person!.name, email: person!.email }, now);
      } catch (err) {
        if (err instanceof ApiError && err.details.reason === 'member_limit') throw new SsoRefusal('member_limit', err.message);
        throw err;
      }
    }
    return userId;
  });
  const account = (tied ? await accountIn(services.db, userId, tied.workspaceId) : null) ?? (await findUserById(services.db, userId));
  if (!account) throw new SsoRefusal('no_workspace', `${userId} belongs to no workspace`);
  return { account, providerId: provider.id };
}

// ---------------------------------------------------------------------------------------------
// A workspace's domains and requirement

/** The domain of an address, in the stored form of domains (lower-case ASCII, xn-- for an international name); null for none. */
function domainOfAddress(email: string): string | null {
  const normalized = normalizeCustomDomain(email.slice(email.lastIndexOf('@') + 1));
  return 'domain' in normalized ? normalized.domain : null;
}

/** The workspace's sign-in domains, each with its provider's name, and the providers one may tie a domain to. */
export async function singleSignOnSettings(db: Pick<Database, 'select'>, workspaceId: string) {
  const domains = await db
    .select({ domain: signInDomains.domain, providerId: signInDomains.providerId, providerName: identityProviders.name, createdAt: signInDomains.createdAt })
    .from(signInDomains)
    .innerJoin(identityProviders, eq(identityProviders.id, signInDomains.providerId))
    .where(eq(signInDomains.workspaceId, workspaceId))
    .orderBy(asc(signInDomains.domain));
  const [ws] = await db.select({ required: workspaces.requireSingleSignOn }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return {
    providers: await signInProviderChoices(db),
    domains: domains.map((d) => ({ ...d, createdAt: d.createdAt.toISOString() })),
    required: ws?.required ?? false,
  };
}

/**
 * Ties an email domain to a provider for the workspace. Only a domain of the person's own address
 * may be tied (nobody claims another company's people), and each domain is one workspace's (409
 * `domain_taken`).
 */
export async function tieSignInDomain(db: Database, user: SignedInUser, input: { domain: string; providerId: string }, now: Date) {
  const normalized = normalizeCustomDomain(input.domain.replace(/^@/, ''));
  if ('problem' in normalized) throw new ApiError('invalid_request', normalized.problem, { fields: [{ path: 'domain', message: 'Not a domain name' }] });
  const { domain } = normalized;
  if (domainOfAddress(user.email) !== domain) {
    throw new ApiError('forbidden', said({ id: 'api.auth.notYourDomain', defaultMessage: 'You can tie only the domain of your own address ({email}): sign in with an address at {domain} to tie it' }, { email: user.email, domain }), {
      reason: 'not_your_domain',
      fields: [{ path: 'domain', message: 'Not the domain of your address' }],
    });
  }
  const [provider] = await db.select({ id: identityProviders.id, name: identityProviders.name }).from(identityProviders).where(eq(identityProviders.id, input.providerId));
  if (!provider) throw new ApiError('invalid_request', said({ id: 'api.auth.noSuchIdentityProvider', defaultMessage: 'No such identity provider on this server' }), { fields: [{ path: 'providerId', message: 'Unknown provider' }] });
  await db.transaction(async (tx) => {
    const [taken] = await tx.insert(signInDomains).values({ domain, workspaceId: user.workspaceId, providerId: provider.id, createdAt: now }).onConflictDoNothing().returning();
    if (!taken) throw new ApiError('conflict', said({ id: 'api.auth.domainTaken', defaultMessage: '{domain} is tied to a workspace already' }, { domain }), { reason: 'domain_taken', fields: [{ path: 'domain', message: 'Tied already' }] });
    await recordActivity(tx, user.workspaceId, now, { kind: 'workspace.sign_in_domain_tied', actor: memberActor(user), subject: { type: 'domain', id: null, name: domain }, detail: { provider: provider.name } });
  });
}

/** Unties a domain; the workspace's last one cannot go while single sign-on is required (409 `single_sign_on_required`): nobody could comply. */
export async function untieSignInDomain(db: Database, user: SignedInUser, rawDomain: string, now: Date) {
  const normalized = normalizeCustomDomain(rawDomain);
  const domain = 'domain' in normalized ? normalized.domain : rawDomain;
  await db.transaction(async (tx) => {
    const [ws] = await tx.select({ required: workspaces.requireSingleSignOn }).from(workspaces).where(eq(workspaces.id, user.workspaceId)).for('update');
    const tiedHere = await tx.select({ domain: signInDomains.domain }).from(signInDomains).where(eq(signInDomains.workspaceId, user.workspaceId));
    if (!tiedHere.some((d) => d.domain === domain)) throw notFound(said({ id: 'api.auth.signInDomainNotFound', defaultMessage: 'Sign-in domain not found' }));
    if (ws?.required && tiedHere.length === 1) {
      throw new ApiError('conflict', said({ id: 'api.auth.stopRequiringSingleSign', defaultMessage: 'Stop requiring single sign-on first: without a domain, nobody could sign in to this workspace' }), { reason: 'single_sign_on_required' });
    }
    await tx.delete(signInDomains).where(and(eq(signInDomains.domain, domain), eq(signInDomains.workspaceId, user.workspaceId)));
    await recordActivity(tx, user.workspaceId, now, { kind: 'workspace.sign_in_domain_untied', actor: memberActor(user), subject: { type: 'domain', id: null, name: domain } });
  });
}
