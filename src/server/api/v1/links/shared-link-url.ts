import type { ResolveLinkRequest, ResolvedLink } from '../../../../contract/links.js';
import { visitorAccess } from '../../../collections/access.js';
import { workspaceOfDomain } from '../../../collections/custom-link.js';
import { openSharedCollection, sharedDownloadLinks, unlockSharedCollection } from '../../../collections/shared-link.js';
import type { Caller } from '../../../core/caller.js';
import { ApiError, invalidField } from '../../../core/errors.js';
import type { Services } from '../../../services.js';
import { assertUnlocked, openSharedTransfer, startVisitLinks, unlockSharedTransfer } from '../../../transfers/shared-link.js';
import { said, type Sentence } from '../../../core/sentences.js';

/**
 * `POST /api/v1/links/resolve`: a shared link of this service, as someone was sent it, turned into
 * signed download URLs for the caller (any workspace's credential). The link is opened exactly as
 * its page opens it, through the same operations (transfers/shared-link.ts,
 * collections/shared-link.ts): same 404 and 410 `link_unavailable`, same password rule and the same
 * limit on wrong passwords (per link, with the caller's credential standing for the address), and
 * for a transfer a real visit, so its downloads count like the recipient page's.
 *
 * The URL is only parsed: no DNS lookup, no request. It names a link only on this service's own
 * origin (PUBLIC_URL) or on a workspace's own domain, looked up in the database.
 */

/** What a URL names, when it is a link of this service. */
export type ParsedLink =
  | { kind: 'transfer'; slug: string; recipientToken: string | undefined }
  | { kind: 'collection'; slug: string }
  /** `/<slug>` on a host other than PUBLIC_URL's: a collection if the host is a workspace's own domain. */
  | { kind: 'domain'; host: string; slug: string };

const SLUG = '([A-Za-z0-9_-]{1,100})';
const transferPath = new RegExp(`^/t/${SLUG}/?$`);
const collectionPath = new RegExp(`^/c/${SLUG}/?$`);
const domainPath = new RegExp(`^/${SLUG}/?$`);
/** The `r` parameter of a personal link, as the recipient page takes it (a longer one is dropped there too). */
const RECIPIENT_TOKEN_MAX = 200;

const notALink = (why: Sentence) => invalidField('body', 'url', why);

/**
 * What `url` names, from its text alone: `<PUBLIC_URL>/t/<slug>[?r=<token>]`, `<PUBLIC_URL>/c/<slug>`, or
 * `https://<host>/<slug>` on a host other than PUBLIC_URL's (a candidate workspace domain, checked later). Anything
 * else is `400 invalid_request` naming `url`. The fragment (an end-to-end encrypted link's key) is ignored.
 */
export function parseSharedLinkUrl(publicUrl: string, url: string): ParsedLink {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw notALink(said({ id: 'api.links.notAUrl', defaultMessage: 'not a URL' }));
  }
  if (u.username !== '' || u.password !== '') throw notALink(said({ id: 'api.links.withCredentials', defaultMessage: 'a link of this service carries no user name or password' }));
  const own = new URL(publicUrl);
  if (u.origin === own.origin) {
    const base = own.pathname.replace(/\/+$/, '');
    if (!u.pathname.startsWith(`${base}/`)) throw notALink(said({ id: 'api.links.notOurs', defaultMessage: 'not a shared link of this service' }));
    const path = u.pathname.slice(base.length);
    const t = transferPath.exec(path);
    if (t) {
      const r = u.searchParams.get('r');
      return { kind: 'transfer', slug: t[1]!, recipientToken: r && r.length <= RECIPIENT_TOKEN_MAX ? r : undefined };
    }
    const c = collectionPath.exec(path);
    if (c) return { kind: 'collection', slug: c[1]! };
    throw notALink(said({ id: 'api.links.notOursPath', defaultMessage: 'not a shared link of this service: expected {transferPath} or {collectionPath}', description: 'transferPath, collectionPath: the paths of a shared link (/t/<slug>, /c/<slug>)' }, { transferPath: '/t/<slug>', collectionPath: '/c/<slug>' }));
  }
  // A workspace's own domain is served on https (or on PUBLIC_URL's scheme, whoever terminates TLS for one does for both).
  if (u.protocol !== 'https:' && u.protocol !== own.protocol) throw notALink(said({ id: 'api.links.notOurs', defaultMessage: 'not a shared link of this service' }));
  if (u.port !== '' && u.port !== own.port) throw notALink(said({ id: 'api.links.notOurs', defaultMessage: 'not a shared link of this service' }));
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const slug = domainPath.exec(u.pathname)?.[1];
  if (host === '' || host.startsWith('[') || slug === undefined) throw notALink(said({ id: 'api.links.notOurs', defaultMessage: 'not a shared link of this service' }));
  return { kind: 'domain', host, slug };
}

/** The failed-password limiter's "address" for an API caller: its credential, so each key has its own allowance per link. */
export const callerAddress = (caller: Pick<Caller, 'credentialId'>) => `key:${caller.credentialId}`;

export async function resolveSharedLink(services: Services, caller: Caller, input: ResolveLinkRequest): Promise<ResolvedLink> {
  const parsed = parseSharedLinkUrl(services.config.PUBLIC_URL, input.url);
  if (parsed.kind === 'transfer') return resolveTransfer(services, caller, parsed.slug, parsed.recipientToken, input.password);
  let onDomainOf: string | null = null;
  if (parsed.kind === 'domain') {
    // Only a workspace's own domain is a link of this service; a database lookup, never DNS.
    onDomainOf = await workspaceOfDomain(services.db, parsed.host);
    if (onDomainOf === null) throw notALink(said({ id: 'api.links.notOurs', defaultMessage: 'not a shared link of this service' }));
  }
  return resolveCollection(services, caller, parsed.slug, onDomainOf, input.password);
}

/** As the recipient page: open (404/410), unlock (401/403/429), then a visit with its links; 409 for end-to-end encryption. */
async function resolveTransfer(
  services: Services,
  caller: Caller,
  slug: string,
  recipientToken: string | undefined,
  password: string | undefined,
): Promise<ResolvedLink> {
  const { t } = await openSharedTransfer(services, slug);
  let unlockToken: string | undefined;
  if (t.passwordHash !== null && password !== undefined) {
    unlockToken = (await unlockSharedTransfer(services, t, password, callerAddress(caller))).unlockToken;
  }
  assertUnlocked(services, t, unlockToken);
  if (t.e2ee) {
    throw new ApiError('e2ee_unsupported', said({ id: 'api.links.transferEndEndEncrypted', defaultMessage: 'This transfer is end-to-end encrypted: its files can only be opened in a browser that holds the key.' }));
  }
  return { kind: 'transfer', title: t.title, ...(await startVisitLinks(services, t, recipientToken)) };
}

/** As the collection page: open (404/410), the visitor's access (401/403/429), then links for the whole collection. */
async function resolveCollection(
  services: Services,
  caller: Caller,
  slug: string,
  onDomainOf: string | null,
  password: string | undefined,
): Promise<ResolvedLink> {
  const { c } = await openSharedCollection(services, slug, onDomainOf);
  let unlockToken: string | undefined;
  // A private collection answers guests_only here too, whatever the password: a credential is never a guest.
  if (c.visibility === 'password' && password !== undefined) {
    unlockToken = (await unlockSharedCollection(services, c, password, callerAddress(caller))).unlockToken;
  }
  const access = await visitorAccess(services, c, { unlockToken });
  // On the service's own origin, even for a custom-domain link: the API client has no page whose CSP it must match.
  const links = await sharedDownloadLinks(services, c, undefined, access, services.config.PUBLIC_URL);
  return { kind: 'collection', title: c.title, ...links };
}
