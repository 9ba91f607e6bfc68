import type { Contact } from '../../../contract/contacts';
import { contactName, foldForSearch } from '../../lib/contacts';

/** Where a query was found in a text, in the text's own indices: `text.slice(start, end)` is the part to emphasise. */
export interface MatchRange {
  start: number;
  end: number;
  /** It starts a word (the text's start, or after a space, dot, @, hyphen…): what people type first. */
  atWordStart: boolean;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Lower-cased with accents taken off ("Zoë" → "zoe"), remembering for each folded character which
 * character of the original it came from, so a match found in the folded text can be emphasised in
 * the text as it is shown.
 */
function fold(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const character of text) {
    const plain = character.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let i = 0; i < plain.length; i += 1) origin.push(index);
    folded += plain;
    index += character.length;
  }
  origin.push(text.length);
  return { folded, origin };
}

/** The best place `query` occurs in `text`, ignoring case and accents: the first at a word's start, else the first anywhere. */
export function findMatch(text: string, query: string): MatchRange | null {
  const needle = foldForSearch(query.trim());
  if (!needle || !text) return null;
  const { folded, origin } = fold(text);
  let first: number | null = null;
  for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + 1)) {
    first ??= at;
    if (at === 0 || !LETTER_OR_DIGIT.test(folded[at - 1]!)) return { start: origin[at]!, end: origin[at + needle.length]!, atWordStart: true };
  }
  return first === null ? null : { start: origin[first]!, end: origin[first + needle.length]!, atWordStart: false };
}

/** How well a contact answers a query: lower is better; null when it does not. */
function rank(contact: Contact, query: string): number | null {
  const inName = [contact.firstName, contact.lastName, contactName(contact), contact.email].map((text) => findMatch(text, query));
  if (inName.some((match) => match?.atWordStart)) return 0;
  const inCompany = findMatch(contact.company, query);
  if (inCompany?.atWordStart) return 1;
  return inName.some(Boolean) || inCompany ? 2 : null;
}

export const MAX_SUGGESTIONS = 8;

/**
 * The contacts to suggest for what is being typed: those whose first name, last name, full name,
 * email or company contains it (case and accents ignored), a word of a name or email starting with
 * it first, then a company's word, then anything containing it; otherwise in the address book's
 * order. Addresses already in the field (`exclude`, lower-cased) are not suggested again.
 */
export function matchContacts(contacts: readonly Contact[], query: string, exclude: ReadonlySet<string> = new Set(), limit = MAX_SUGGESTIONS): Contact[] {
  if (!query.trim()) return [];
  const ranked: { contact: Contact; rank: number }[] = [];
  for (const contact of contacts) {
    if (exclude.has(contact.email.toLowerCase())) continue;
    const score = rank(contact, query);
    if (score !== null) ranked.push({ contact, rank: score });
  }
  // Array.prototype.sort is stable: equal ranks keep the address book's order.
  return ranked
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map(({ contact }) => contact);
}
