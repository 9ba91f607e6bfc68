/**
 * Plain values, free of zod, so the browser app can import them without the schema library.
 */

/** The eight API scopes. There is deliberately none for billing, members, keys or account deletion. */
export const scopes = [
  'transfers:read',
  'transfers:write',
  'collections:read',
  'collections:write',
  'contacts:read',
  'contacts:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof scopes)[number];

/** Granted only to OAuth apps the user allowed to email recipients; an API key may always email. */
export const sendScope = 'transfers:send';

export const scopeDescriptions: Record<Scope, string> = {
  'transfers:read': 'List and read transfers, download receipts, download links for own transfers',
  'transfers:write': 'Create transfers, add and remove files, send (including emailing recipients), change expiry and download limits, revoke',
  'collections:read': 'List collections, files, folders, guests, collection download links, upload requests',
  'collections:write': 'Create, rename, delete collections, upload and delete files, create folders, invite and remove guests, manage upload requests (paid plan)',
  'contacts:read': 'List and read contacts',
  'contacts:write': 'Create, replace, delete contacts',
  'webhooks:read': 'List endpoints, deliveries, events',
  'webhooks:write': 'Create, change, delete endpoints, rotate secret, test, redeliver',
};

/** Scopes a free workspace may not put on a key. */
export const paidOnlyScopes: readonly Scope[] = ['collections:write'];

/** Every scope a workspace on this plan may hold. */
export const scopesForPlan = (plan: 'free' | 'paid'): Scope[] => scopes.filter((s) => plan === 'paid' || !paidOnlyScopes.includes(s));

/** The roles of a workspace's members (docs/teams.md): the owner, admins, and members. */
export type MemberRole = 'owner' | 'admin' | 'member';


/**
 * Every scope a member's dashboard and OAuth tokens may hold: what the plan allows, within what the
 * role allows (webhooks are the owner's and admins' business; a member's tokens never carry them).
 */
export const scopesForMember = (plan: 'free' | 'paid', role: MemberRole): Scope[] => scopesForPlan(plan).filter((s) => role !== 'member' || !s.startsWith('webhooks:'));

/** `:write` includes `:read` of the same resource, and never crosses resources. */
export function scopeSatisfies(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [resource, action] = required.split(':');
  return action === 'read' && granted.includes(`${resource}:write`);
}
