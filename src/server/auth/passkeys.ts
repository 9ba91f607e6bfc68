import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import { ApiError, notFound } from '../core/errors.js';
import { newId } from '../core/secrets.js';
import { passkeys } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { findUserById } from '../workspaces/accounts.js';
import { keepChallenge, spendChallenge } from './browser-challenges.js';
import { mailSecurityChange } from './security-mail.js';
import { endOtherSessions, type Account, type SignedInUser } from './sessions.js';
import { said } from '../core/sentences.js';

/**
 * Passkeys (WebAuthn, with `@simplewebauthn/server`): a person registers discoverable credentials
 * from Security and then signs in with one alone; it proves both what they have and (by the user
 * verification it requires) who they are, so no second step follows. The relying party is
 * PUBLIC_URL's host, and the origin PUBLIC_URL's origin: a passkey made on one address does not
 * work on another (docs/security.md, for custom domains). Challenges live five minutes, their token
 * in an HttpOnly cookie, only its hash stored; each is spent by its first answer, right or wrong.
 */

type PasskeyServices = Pick<Services, 'db' | 'clock' | 'config' | 'mailer'>;

const CHALLENGE_TTL_MS = 5 * 60_000;

function relyingParty(config: Services['config']) {
  const url = new URL(config.PUBLIC_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: 'Parcel' };
}

const keepPasskeyChallenge = (services: PasskeyServices, challenge: string, userId: string | null) =>
  keepChallenge(services, 'passkey', challenge, { userId, ttlMs: CHALLENGE_TTL_MS });

const expired = () => new ApiError('invalid_request', said({ id: 'api.auth.passkeyRequestExpiredTry', defaultMessage: 'This passkey request has expired; try again' }), { reason: 'challenge_expired' });

const passkeyBody = (row: typeof passkeys.$inferSelect) => ({
  id: row.id,
  name: row.name,
  backedUp: row.backedUp,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys(services: Pick<Services, 'db'>, userId: string) {
  const rows = await services.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
  return rows.map(passkeyBody);
}

/** Options for `navigator.credentials.create()`: a discoverable credential, user verification required, none of the person's own again. */
export async function passkeyRegistrationOptions(services: PasskeyServices, user: SignedInUser) {
  const { rpID, rpName } = relyingParty(services.config);
  const existing = await services.db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.userId));
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(user.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return { options, ...(await keepPasskeyChallenge(services, options.challenge, user.userId)) };
}

/** Keeps the passkey the browser made for the challenge of `token`, named by the person. */
export async function registerPasskey(services: PasskeyServices, user: SignedInUser, token: string | undefined, input: { name: string; credential: unknown }) {
  const challenge = await spendChallenge(services, 'passkey', token, user.userId);
  if (!challenge) throw expired();
  const { rpID, origin } = relyingParty(services.config);
  const verification = await verifyRegistrationResponse({
    response: input.credential as RegistrationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw new ApiError('invalid_request', said({ id: 'api.auth.passkeyCouldCheckedTry', defaultMessage: 'The passkey could not be checked; try again' }), { reason: 'passkey_not_verified' });
  const { credential, credentialBackedUp } = verification.registrationInfo;
  const [row] = await services.db
    .insert(passkeys)
    .values({
      id: newId('pk'),
      userId: user.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
      backedUp: credentialBackedUp,
      createdAt: services.clock.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ApiError('conflict', said({ id: 'api.auth.passkeyRegisteredAlready', defaultMessage: 'This passkey is registered already' }), { reason: 'passkey_exists' });
  await mailSecurityChange(services, user, { kind: 'passkey_added', name: row.name });
  return passkeyBody(row);
}

/** Removes one of the person's passkeys; their other sessions end (one may have been opened with it). */
export async function removePasskey(services: Pick<Services, 'db' | 'mailer' | 'config'>, user: SignedInUser, id: string) {
  const name = await services.db.transaction(async (tx) => {
    const [removed] = await tx.delete(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, user.userId))).returning({ name: passkeys.name });
    if (!removed) throw notFound(said({ id: 'api.auth.passkeyNotFound', defaultMessage: 'Passkey not found' }));
    await endOtherSessions(tx, user);
    return removed.name;
  });
  await mailSecurityChange(services, user, { kind: 'passkey_removed', name });
}

/** Options for `navigator.credentials.get()`: any discoverable passkey of this site, user verification required. */
export async function passkeySignInOptions(services: PasskeyServices) {
  const { rpID } = relyingParty(services.config);
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', allowCredentials: [] });
  return { options, ...(await keepPasskeyChallenge(services, options.challenge, null)) };
}

/** The account a passkey signs in to, once its signature over the challenge of `token` checks out; 401 otherwise, the same for every failure. */
export async function signInWithPasskey(services: PasskeyServices, token: string | undefined, credential: unknown): Promise<Account> {
  const challenge = await spendChallenge(services, 'passkey', token, null);
  if (!challenge) throw expired();
  const response = credential as AuthenticationResponseJSON;
  const refused = () => new ApiError('unauthorized', said({ id: 'api.auth.passkeyOneServerS', defaultMessage: 'This passkey is not one of this server’s, or it could not be checked' }));
  const [passkey] = await services.db.select().from(passkeys).where(eq(passkeys.credentialId, String(response.id)));
  if (!passkey) throw refused();
  const { rpID, origin } = relyingParty(services.config);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports as AuthenticatorTransport[] },
  }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
  // The discoverable credential names its person too: it must be the passkey's.
  const userHandle = response.response?.userHandle ? Buffer.from(response.response.userHandle, 'base64url').toString('utf8') : passkey.userId;
  if (!verification.verified || !verification.authenticationInfo || userHandle !== passkey.userId) throw refused();
  await services.db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: services.clock.now(), backedUp: verification.authenticationInfo.credentialBackedUp })
    .where(eq(passkeys.id, passkey.id));
  const account = await findUserById(services.db, passkey.userId);
  if (!account) throw new ApiError('forbidden', said({ id: 'api.auth.accountBelongsNoWorkspace2', defaultMessage: 'Your account belongs to no workspace any more' }), { reason: 'no_workspace' });
  return account;
}
