import type { ParsedAddresses } from '../../components/address-field/address-list';

export const MAX_RECIPIENTS = 50;

/** Why these recipients cannot be sent, or undefined when they can (none is fine: the sender shares the link). */
export function recipientsError({ valid, invalid }: ParsedAddresses): string | undefined {
  if (invalid.length === 1) return `“${invalid[0]}” is not a valid email address.`;
  if (invalid.length > 1) return `These are not valid email addresses: ${invalid.map((a) => `“${a}”`).join(', ')}.`;
  if (valid.length > MAX_RECIPIENTS) return `At most ${MAX_RECIPIENTS} recipients.`;
  return undefined;
}
