import { EmailSchema } from '../../../../../contract/dashboard';

/** The API invites at most this many addresses in one request. */
export const MAX_INVITES = 25;

export interface GuestAddresses {
  /** Lower-cased, in the order typed, each once: what would be sent. */
  valid: string[];
  /** As typed, each once. */
  invalid: string[];
  /** The last address while it is still being typed (no separator after it yet): neither flagged nor sent. */
  pending: string | null;
  /** How many repeats of an address already listed were dropped. */
  duplicates: number;
}

/**
 * Splits what the owner typed on commas, semicolons, whitespace and new lines and checks each
 * address with the contract's own rule, so what the page accepts is what the API accepts. While
 * `typing`, the last word is left alone until a separator follows it: nobody wants "ada@exa"
 * called invalid half-way through.
 */
export function parseGuestAddresses(text: string, { typing }: { typing: boolean }): GuestAddresses {
  const parts = text.split(/[\s,;]+/);
  const trailing = typing && !/[\s,;]$/.test(text) ? (parts.pop() ?? '') : '';
  const result: GuestAddresses = { valid: [], invalid: [], pending: trailing.trim() || null, duplicates: 0 };
  for (const part of parts) {
    if (!part) continue;
    const parsed = EmailSchema.safeParse(part);
    const list = parsed.success ? result.valid : result.invalid;
    const entry = parsed.success ? parsed.data : part;
    if (list.includes(entry)) result.duplicates += 1;
    else list.push(entry);
  }
  return result;
}

/** Why these addresses cannot be sent yet, or undefined when they can. */
export function guestAddressesProblem({ valid, invalid }: GuestAddresses): string | undefined {
  if (invalid.length === 1) return `“${invalid[0]}” is not a valid email address. Fix or remove it.`;
  if (invalid.length > 1) return `${invalid.length} addresses are not valid: ${invalid.map((a) => `“${a}”`).join(', ')}. Fix or remove them.`;
  if (valid.length === 0) return 'Enter at least one email address.';
  if (valid.length > MAX_INVITES) return `At most ${MAX_INVITES} addresses at once; this is ${valid.length}.`;
  return undefined;
}
