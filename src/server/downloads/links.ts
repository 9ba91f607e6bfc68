import type { z } from 'zod';
import type { DownloadLinksSchema } from '../../contract/transfers.js';
import { ApiError } from '../core/errors.js';
import type { Services } from '../services.js';
import { assertAvailable, downloadableFiles, transferZip, type FileRow, type TransferRow } from './content.js';
import { purposeKey, signToken, verifyToken } from './signing.js';

/**
 * Signed download URLs: `${PUBLIC_URL}/dl/<token>`, the token naming the transfer, the file (or
 * `zip`), the recipient's page visit (null for the owner) and an expiry. Nothing is stored: the
 * signature (HMAC keyed from the shared server secret) is the authorization, and the download
 * handler still checks the transfer itself on every request.
 */

export type DownloadLinks = z.infer<typeof DownloadLinksSchema>;

/** An owner's links work for an hour (never past the transfer's expiry). */
export const OWNER_LINK_TTL_MS = 60 * 60 * 1000;

export interface DownloadGrant {
  transferId: string;
  /** A file id, or 'zip' for the whole transfer. */
  fileId: string;
  /** The recipient page visit the download belongs to; null for the owner (no receipt, not counted). */
  sessionId: string | null;
  expiresAt: Date;
}

export const ZIP = 'zip';

type LinkServices = Pick<Services, 'config' | 'cursorKey'>;

const linkKey = (services: LinkServices) => purposeKey(services.cursorKey, 'download-links');

export function downloadUrl(services: LinkServices, grant: DownloadGrant): string {
  const token = signToken(linkKey(services), {
    t: grant.transferId,
    f: grant.fileId,
    s: grant.sessionId,
    e: grant.expiresAt.getTime(),
  });
  return `${services.config.PUBLIC_URL}/dl/${token}`;
}

/** The grant in a token this server signed (expired or not), or null for anything else. */
export function verifyDownloadToken(services: LinkServices, token: string): DownloadGrant | null {
  const p = verifyToken(linkKey(services), token) as { t?: unknown; f?: unknown; s?: unknown; e?: unknown } | null;
  if (!p || typeof p !== 'object') return null;
  if (typeof p.t !== 'string' || typeof p.f !== 'string' || !(p.s === null || typeof p.s === 'string')) return null;
  if (typeof p.e !== 'number' || !Number.isSafeInteger(p.e)) return null;
  return { transferId: p.t, fileId: p.f, sessionId: p.s, expiresAt: new Date(p.e) };
}

/** One URL per file and one for the zip, all for the same visit (or the owner) and expiry. */
export function linksFor(
  services: LinkServices,
  t: Pick<TransferRow, 'id'>,
  files: Pick<FileRow, 'id'>[],
  sessionId: string | null,
  expiresAt: Date,
): { files: Map<string, string>; zip: string } {
  const grant = (fileId: string) => downloadUrl(services, { transferId: t.id, fileId, sessionId, expiresAt });
  return { files: new Map(files.map((f) => [f.id, grant(f.id)])), zip: grant(ZIP) };
}

/**
 * Download links for the transfer's owner (`GET /api/v1/transfers/{id}/download-links`): every
 * complete file and the zip of them, valid for an hour. Owner downloads create no receipts and
 * never count toward the download limit (which they also ignore).
 *
 * Throws 409 `e2ee_unsupported` for an end-to-end encrypted transfer and 410 `link_unavailable`
 * (`details.reason`) for one that expired or was revoked. A draft's complete files can be
 * downloaded by its owner.
 */
export async function createOwnerDownloadLinks(
  services: Pick<Services, 'db' | 'clock' | 'config' | 'cursorKey' | 'storage'>,
  transfer: TransferRow,
): Promise<DownloadLinks> {
  if (transfer.e2ee) {
    throw new ApiError('e2ee_unsupported', 'This transfer is end-to-end encrypted: its files can only be opened in a browser that holds the key.');
  }
  const now = services.clock.now();
  assertAvailable(transfer, now, { countLimit: false });
  const files = await downloadableFiles(services.db, transfer.id);
  const expiresAt = new Date(Math.min(now.getTime() + OWNER_LINK_TTL_MS, transfer.expiresAt.getTime()));
  const zip = transferZip(transfer, files, services.storage);
  const urls = linksFor(services, transfer, files, null, expiresAt);
  return {
    expiresAt: expiresAt.toISOString(),
    files: files.map((f) => ({ fileId: f.id, name: f.name, path: f.path, sizeBytes: f.sizeBytes, crc32: f.crc32, url: urls.files.get(f.id)! })),
    zip: { name: zip.name, sizeBytes: zip.layout.size, url: urls.zip },
  };
}
