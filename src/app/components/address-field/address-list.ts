// Configures zod before its first parse (see the file).
import '../../lib/zod-config';
import { EmailSchema } from '../../../contract/dashboard';

/**
 * Every field where addresses are typed (recipients, guests) holds them as one text, split on
 * commas, semicolons and whitespace. This file is that rule, once: the field shows the text as
 * chips and the word being typed, and the forms parse the same text to send it.
 */

const SEPARATOR = /[\s,;]/;
const SEPARATORS = /[\s,;]+/;

/** The address as the API stores it (trimmed, lower-cased), or null when the API would refuse it: the contract's own rule. */
export function normalizeAddress(address: string): string | null {
  const parsed = EmailSchema.safeParse(address);
  return parsed.success ? parsed.data : null;
}

export interface AddressText {
  /** Everything up to and including the last separator, as typed. */
  head: string;
  /** The words of `head`: addresses finished with a separator, as typed, repeats included. */
  finished: string[];
  /** The word after the last separator, still being typed ("" right after a separator). */
  draft: string;
}

export function splitAddressText(text: string): AddressText {
  let cut = text.length;
  while (cut > 0 && !SEPARATOR.test(text[cut - 1]!)) cut -= 1;
  const head = text.slice(0, cut);
  return { head, finished: head.split(SEPARATORS).filter(Boolean), draft: text.slice(cut) };
}

/** The text holding these finished addresses and this draft, in the shape the field writes: "a@x.com, b@y.com, dra". */
export function joinAddressText(finished: string[], draft: string): string {
  return finished.length > 0 ? `${finished.join(', ')}, ${draft}` : draft;
}

/** What stands for an address in a list: its normal form when valid, the words as typed when not. */
export function addressKey(address: string): string {
  return normalizeAddress(address) ?? address;
}

export interface ParsedAddresses {
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
 * Checks each address of the text with the contract's rule, so what the page accepts is what the
 * API accepts. While `typing`, the last word is left alone until a separator follows it: it may be
 * half an address ("ada@exa") or a name being looked up among the contacts ("ada").
 */
export function parseAddressList(text: string, { typing }: { typing: boolean }): ParsedAddresses {
  const { finished, draft } = splitAddressText(text);
  const words = typing || !draft ? finished : [...finished, draft];
  const result: ParsedAddresses = { valid: [], invalid: [], pending: typing && draft ? draft : null, duplicates: 0 };
  for (const word of words) {
    const normal = normalizeAddress(word);
    const list = normal === null ? result.invalid : result.valid;
    const entry = normal ?? word;
    if (list.includes(entry)) result.duplicates += 1;
    else list.push(entry);
  }
  return result;
}
