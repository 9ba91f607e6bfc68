import { ApiError } from '../core/errors.js';
import { zipDownload, zipFileName } from '../downloads/content.js';
import { linksFor, OWNER_LINK_TTL_MS, type DownloadLinks } from '../downloads/links.js';
import type { Services } from '../services.js';
import { assertAvailable, type TransferRow } from './availability.js';
import { downloadableFiles, type TransferFile } from './files.js';
import { said } from '../core/sentences.js';

/** What a transfer's zip holds: every complete file, in order, with its folder path; named after the title. */
export function transferZipContent(t: Pick<TransferRow, 'title' | 'createdAt' | 'finalizedAt'>, files: TransferFile[]) {
  return { name: zipFileName(t.title), files: files.map((file) => ({ file, path: file.path })), since: t.finalizedAt ?? t.createdAt };
}

/** The transfer's zip as it will be served: its name and exact size, before a byte is read. */
export function transferZipSummary(services: Pick<Services, 'storage'>, t: Pick<TransferRow, 'title' | 'createdAt' | 'finalizedAt'>, files: TransferFile[]) {
  const content = transferZipContent(t, files);
  const zip = zipDownload(content.name, content.files, content.since, services.storage);
  return { name: zip.name, sizeBytes: zip.layout.size };
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
    throw new ApiError('e2ee_unsupported', said({ id: 'api.transfers.transferEndEndEncrypted', defaultMessage: 'This transfer is end-to-end encrypted: its files can only be opened in a browser that holds the key.' }));
  }
  const now = services.clock.now();
  assertAvailable(transfer, now, { countLimit: false });
  const files = await downloadableFiles(services.db, transfer.id);
  const expiresAt = new Date(Math.min(now.getTime() + OWNER_LINK_TTL_MS, transfer.expiresAt.getTime()));
  return transferDownloadLinks(services, transfer, files, null, expiresAt);
}

/**
 * The DownloadLinks shape of a transfer's files and their zip, signed until `expiresAt` under a
 * visit (`sessionId`, whose downloads are counted and make receipts) or none (the owner's own).
 */
export function transferDownloadLinks(
  services: Pick<Services, 'config' | 'cursorKey' | 'storage'>,
  transfer: TransferRow,
  files: TransferFile[],
  sessionId: string | null,
  expiresAt: Date,
): DownloadLinks {
  const urls = linksFor(services, { kind: 'transfer', id: transfer.id }, files, sessionId, expiresAt);
  return {
    expiresAt: expiresAt.toISOString(),
    files: files.map((f) => ({ fileId: f.id, name: f.name, path: f.path, sizeBytes: f.sizeBytes, crc32: f.crc32, url: urls.files.get(f.id)! })),
    zip: { ...transferZipSummary(services, transfer, files), url: urls.zip },
  };
}
