/** Where to go after signing in when no (acceptable) `redirect` was given. */
export const defaultAfterSignIn = '/transfers';

const base = 'http://parcel.invalid';

/**
 * Accepts only a path inside this app (`/keys?x=1#y`), never an absolute or protocol-relative URL,
 * so a crafted sign-in link cannot send the user to another site after they sign in.
 */
export function safeRedirectPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // Browsers drop tabs and newlines inside URLs and read `\` as `/`: refuse them outright.
  if (value.includes('\\') || [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Sending someone back to a sign-in page after signing in would loop.
  if (url.pathname === '/signin' || url.pathname === '/signup') return undefined;
  return path;
}
