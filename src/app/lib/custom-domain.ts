/**
 * Whether this page was served on a workspace's own domain, where `/<slug>` is a collection's page.
 * The server marks the index it serves there with `<meta name="parcel-custom-domain">` (it alone
 * knows which hosts are whose); on the service's own host there is no such tag.
 */
export function isCustomDomain(): boolean {
  return typeof document !== 'undefined' && document.querySelector('meta[name="parcel-custom-domain"]') !== null;
}
