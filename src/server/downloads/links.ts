import type { z } from 'zod';
import type { DownloadLinksSchema } from '../../contract/transfers.js';
import { FILE_OWNER_KINDS, type FileOwnerKind } from '../db/schema/index.js';
import type { DownloadGrant } from '../files/owners.js';
import type { Services } from '../services.js';
import { purposeKey, signToken, verifyToken } from './signing.js';

/**
 * Signed download URLs: `${PUBLIC_URL}/dl/<token>`, the token naming the owner (its kind and id),
 * the file (or `zip`), the page visit (null for the owner's own links) and an expiry. Nothing is
 * stored: the signature (HMAC keyed from the shared server secret) is the authorization, and the
 * owner still checks itself on every request.
 */

/** What every owner answers for a set of download links: each file's URL and the zip's (the spec's DownloadLinks). */
export type DownloadLinks = z.infer<typeof DownloadLinksSchema>;

/** An owner's own links work for an hour (never past what they link to). */
export const OWNER_LINK_TTL_MS = 60 * 60 * 1000;

export const ZIP = 'zip';

type LinkServices = Pick<Services, 'config' | 'cursorKey'>;

const linkKey = (services: LinkServices) => purposeKey(services.cursorKey, 'download-links');

/** `origin` is PUBLIC_URL, or the workspace's own domain its visitor is on, so a download stays on the address they were given. */
export function downloadUrl(services: LinkServices, grant: DownloadGrant, origin: string = services.config.PUBLIC_URL): string {
  // `k` is left out for transfers, so links signed before owners had kinds still verify.
  const token = signToken(linkKey(services), {
    ...(grant.ownerKind === 'transfer' ? {} : { k: grant.ownerKind }),
    t: grant.ownerId,
    f: grant.fileId,
    s: grant.sessionId,
    // Only zips of one folder carry `w`, so every other link keeps the shape it always had.
    ...(grant.within === null ? {} : { w: grant.within }),
    e: grant.expiresAt.getTime(),
  });
  return `${origin}/dl/${token}`;
}

const isOwnerKind = (k: unknown): k is FileOwnerKind => (FILE_OWNER_KINDS as readonly unknown[]).includes(k);

/** The grant in a token this server signed (expired or not), or null for anything else. */
export function verifyDownloadToken(services: LinkServices, token: string): DownloadGrant | null {
  const p = verifyToken(linkKey(services), token) as { k?: unknown; t?: unknown; f?: unknown; s?: unknown; w?: unknown; e?: unknown } | null;
  if (!p || typeof p !== 'object') return null;
  const kind = p.k ?? 'transfer';
  if (!isOwnerKind(kind)) return null;
  if (typeof p.t !== 'string' || typeof p.f !== 'string' || !(p.s === null || typeof p.s === 'string')) return null;
  if (typeof p.e !== 'number' || !Number.isSafeInteger(p.e)) return null;
  const within = p.w ?? null;
  if (!(within === null || typeof within === 'string')) return null;
  return { ownerKind: kind, ownerId: p.t, fileId: p.f, sessionId: p.s, within, expiresAt: new Date(p.e) };
}

/** One URL per file and one for the zip of them, all for the same visit (or the owner) and expiry. */
export function linksFor(
  services: LinkServices,
  owner: { kind: FileOwnerKind; id: string },
  files: { id: string }[],
  sessionId: string | null,
  expiresAt: Date,
  zipWithin: string | null = null,
  origin: string = services.config.PUBLIC_URL,
): { files: Map<string, string>; zip: string } {
  const grant = (fileId: string, within: string | null = null) =>
    downloadUrl(services, { ownerKind: owner.kind, ownerId: owner.id, fileId, sessionId, within, expiresAt }, origin);
  return { files: new Map(files.map((f) => [f.id, grant(f.id)])), zip: grant(ZIP, zipWithin) };
}
