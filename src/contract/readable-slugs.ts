/* Plain values, free of zod, so the dashboard's share dialog checks a name as the API will before sending it. */

/**
 * A collection's readable link (`/c/spring-lookbook`): lower-case letters and digits in words joined by single
 * hyphens, 3 to 64 characters. The random slug a collection starts with has capitals (all but certainly), and the
 * one unique index over both settles the rest.
 */
export const READABLE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const READABLE_SLUG_MIN = 3;
export const READABLE_SLUG_MAX = 64;

/**
 * Names refused whole: the service's own paths (on a workspace's domain a collection is served at `/<slug>`, beside
 * the app's files), and names that would make a link look like the service's, or a bank's, own page.
 */
const RESERVED = new Set(
  'admin administrator api app apps assets auth billing c dashboard dl docs download downloads favicon health help home index login logout mcp oauth r robots settings signin signout signup sitemap static status support t thumb vault well-known www'.split(' '),
);

/**
 * Words refused anywhere in a name: what phishing pages on a shared domain are made of (a link on this service
 * carries its trust), and slurs nobody should find in a link they were sent.
 */
const REFUSED_WORDS = new Set(
  'password passwords passcode login signin verify verification account accounts wallet bank banking paypal apple microsoft google office365 outlook invoice-overdue security-alert suspended unlock recovery seed phishing nazi rape porn xxx cunt nigger nigga faggot retard'.split(' '),
);

/** What is wrong with `slug` as a readable link, as a sentence naming the field, or null when it may be used. */
export function readableSlugProblem(slug: string): string | null {
  if (slug.length < READABLE_SLUG_MIN || slug.length > READABLE_SLUG_MAX) return `slug must be ${READABLE_SLUG_MIN} to ${READABLE_SLUG_MAX} characters`;
  if (!READABLE_SLUG_PATTERN.test(slug)) return 'slug may hold lower-case letters, digits and single hyphens between words';
  if (RESERVED.has(slug)) return 'slug is reserved: pick another name';
  const words = slug.split('-');
  const refused = words.some((word, i) => REFUSED_WORDS.has(word) || REFUSED_WORDS.has(`${word}-${words[i + 1] ?? ''}`));
  return refused ? 'slug contains a word links here may not use: pick another name' : null;
}
