import { and, eq } from 'drizzle-orm';
import { ApiError } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { collectionGuests } from '../db/schema/index.js';
import { purposeKey, signToken, verifyToken } from '../downloads/signing.js';
import type { Services } from '../services.js';
import { passwordTag, unlockTokenValid } from '../sharing/unlock.js';
import type { CollectionRow } from './collections.js';
import { said } from '../core/sentences.js';

/**
 * Who may see a collection, and how each kind of access is proved and kept honest:
 *
 * - `owner`: the workspace itself, through /api/v1 (its download links carry no visit).
 * - `public`: anyone with the secret link, while visibility is `public`.
 * - `password`: the holder of an unlock token, while visibility is `password` and the password is
 *   the one they proved (`tag`).
 * - `guest`: an invited address that signed in with a one-time link, while it is still invited;
 *   guests keep their access whatever the visibility.
 *
 * Signed download links carry the access they were made under (as the grant's `sessionId`) and
 * are checked against the collection's current state on every request, so a change of visibility
 * or password, or a removed guest, takes effect on the very next request.
 */
export type CollectionAccess = { kind: 'owner' } | { kind: 'public' } | { kind: 'password'; tag: string } | { kind: 'guest'; guestId: string };

/** How long a guest stays signed in to the one collection (re-checked on every request). */
export const GUEST_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The cookie holding a guest's session, scoped by path to the one collection's public API. */
export const GUEST_COOKIE = 'collection_guest';

/** The access as a download grant's `sessionId`: null for the owner. */
export function accessToGrant(access: CollectionAccess): string | null {
  switch (access.kind) {
    case 'owner':
      return null;
    case 'public':
      return 'public';
    case 'password':
      return `password:${access.tag}`;
    case 'guest':
      return `guest:${access.guestId}`;
  }
}

/** The access a grant's `sessionId` was made under, or null for one that names none. */
export function accessOfGrant(sessionId: string | null): CollectionAccess | null {
  if (sessionId === null) return { kind: 'owner' };
  if (sessionId === 'public') return { kind: 'public' };
  const colon = sessionId.indexOf(':');
  const kind = sessionId.slice(0, colon);
  const value = sessionId.slice(colon + 1);
  if (colon < 0 || value === '') return null;
  if (kind === 'password') return { kind: 'password', tag: value };
  if (kind === 'guest') return { kind: 'guest', guestId: value };
  return null;
}

/** Whether an access still holds against the collection as it is now. */
export async function accessHolds(
  db: Pick<Database, 'select'>,
  c: Pick<CollectionRow, 'id' | 'visibility' | 'passwordHash'>,
  access: CollectionAccess,
): Promise<boolean> {
  switch (access.kind) {
    case 'owner':
      return true;
    case 'public':
      return c.visibility === 'public';
    case 'password':
      return c.visibility === 'password' && c.passwordHash !== null && passwordTag(c.passwordHash) === access.tag;
    case 'guest':
      return (await guestOf(db, c.id, access.guestId)) !== null;
  }
}

async function guestOf(db: Pick<Database, 'select'>, collectionId: string, guestId: string) {
  const [guest] = await db
    .select({ id: collectionGuests.id })
    .from(collectionGuests)
    .where(and(eq(collectionGuests.id, guestId), eq(collectionGuests.collectionId, collectionId)));
  return guest ?? null;
}

type TokenServices = Pick<Services, 'cursorKey'>;
const guestKey = (services: TokenServices) => purposeKey(services.cursorKey, 'collection-guest');

/** A guest's session token: the guest and the one collection, until when. */
export function issueGuestSession(services: TokenServices, guest: { id: string; collectionId: string }, now: Date) {
  const expiresAt = new Date(now.getTime() + GUEST_SESSION_TTL_MS);
  return { token: signToken(guestKey(services), { g: guest.id, c: guest.collectionId, e: expiresAt.getTime() }), expiresAt };
}

/** The guest a session token names for this collection, if it is genuine and unexpired (not whether they are still invited). */
export function guestOfSession(services: TokenServices, token: string | undefined, collectionId: string, now: Date): string | null {
  const p = verifyToken(guestKey(services), token) as { g?: unknown; c?: unknown; e?: unknown } | null;
  if (!p || typeof p !== 'object' || typeof p.g !== 'string' || p.c !== collectionId || typeof p.e !== 'number' || p.e <= now.getTime()) return null;
  return p.g;
}

/**
 * What a visitor of the public side may do with this collection, from what they hold: a guest
 * session (any visibility), the link alone (`public`), or an unlock token (`password`). Refuses
 * with 401 `password_required` or 403 `guests_only`, saying nothing about the collection.
 */
export async function visitorAccess(
  services: Pick<Services, 'db' | 'cursorKey' | 'clock'>,
  c: CollectionRow,
  held: { guestSession?: string; unlockToken?: string },
): Promise<CollectionAccess> {
  const now = services.clock.now();
  const guestId = guestOfSession(services, held.guestSession, c.id, now);
  if (guestId !== null && (await guestOf(services.db, c.id, guestId))) return { kind: 'guest', guestId };
  if (c.visibility === 'public') return { kind: 'public' };
  if (c.visibility === 'password' && c.passwordHash !== null) {
    if (unlockTokenValid(services, held.unlockToken, { id: c.id, passwordHash: c.passwordHash }, now))
      return { kind: 'password', tag: passwordTag(c.passwordHash) };
    throw new ApiError('password_required', said({ id: 'api.collections.collectionProtectedPassword', defaultMessage: 'This collection is protected by a password.' }));
  }
  throw new ApiError('guests_only', said({ id: 'api.collections.collectionSharedOnlyInvited', defaultMessage: 'This collection is shared only with invited guests. If you were invited, ask for a sign-in link with your address.' }));
}
