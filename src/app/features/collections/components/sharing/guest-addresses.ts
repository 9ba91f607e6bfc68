import type { ParsedAddresses } from '../../../../components/address-field/address-list';

/** The API invites at most this many addresses in one request. */
export const MAX_INVITES = 25;

/** Why these addresses cannot be sent yet, or undefined when they can. */
export function guestAddressesProblem({ valid, invalid }: ParsedAddresses): string | undefined {
  if (invalid.length === 1) return `“${invalid[0]}” is not a valid email address. Fix or remove it.`;
  if (invalid.length > 1) return `${invalid.length} addresses are not valid: ${invalid.map((a) => `“${a}”`).join(', ')}. Fix or remove them.`;
  if (valid.length === 0) return 'Enter at least one email address.';
  if (valid.length > MAX_INVITES) return `At most ${MAX_INVITES} addresses at once; this is ${valid.length}.`;
  return undefined;
}
