/**
 * Keeps a shared link's unlock token for the browser session: a session cookie (gone when the
 * browser closes) scoped to the link's own page path, so a reload or a second tab of the same link
 * does not ask for the password again. The token still ends when it expires (an hour): it is
 * stored with its expiry and ignored after it. Nothing else can read it: the cookie goes only to
 * the page (`/t/<slug>` for a transfer, `/c/<slug>` or `/<slug>` for a collection), and the server
 * never reads it (the page sends the token in its header).
 */

const cookieName = (slug: string) => `parcel_unlock_${slug.replace(/[^A-Za-z0-9_-]/g, '')}`;
/** A transfer's page, where its unlock is kept unless told otherwise. */
const transferPage = (slug: string) => `/t/${encodeURIComponent(slug)}`;
const secure = () => (typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '');

export function rememberUnlock(slug: string, token: string, expiresAt: string, pagePath: string = transferPage(slug)): void {
  const value = encodeURIComponent(`${Date.parse(expiresAt)}.${token}`);
  document.cookie = `${cookieName(slug)}=${value}; Path=${pagePath}; SameSite=Strict${secure()}`;
}

export function forgetUnlock(slug: string, pagePath: string = transferPage(slug)): void {
  document.cookie = `${cookieName(slug)}=; Path=${pagePath}; Max-Age=0; SameSite=Strict${secure()}`;
}

/** The remembered token while it has not expired, else null (read on the page it was kept for). */
export function rememberedUnlock(slug: string, now: number = Date.now()): string | null {
  // A server render (src/app/entry-server.tsx) has no cookie: it renders only pages that need no unlock.
  if (typeof document === 'undefined') return null;
  const name = `${cookieName(slug)}=`;
  const raw = document.cookie
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(name))
    ?.slice(name.length);
  if (!raw) return null;
  const value = decodeURIComponent(raw);
  const dot = value.indexOf('.');
  const expires = Number(value.slice(0, dot));
  const token = value.slice(dot + 1);
  return dot > 0 && Number.isFinite(expires) && expires > now && token ? token : null;
}
