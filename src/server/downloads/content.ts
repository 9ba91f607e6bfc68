import { createHash } from 'node:crypto';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { LinkUnavailableReason } from '../../contract/public.js';
import type { Database } from '../db/connection.js';
import { transferFiles, type transfers } from '../db/schema.js';
import { ApiError } from '../core/errors.js';
import type { FileStorage } from '../storage/storage.js';
import { zipEntryNames, zipLayout, type ZipLayout, type ZipSource } from './zip.js';

/** What a download serves: a transfer's complete files, one by one or as one zip. */

export type TransferRow = typeof transfers.$inferSelect;
export type FileRow = typeof transferFiles.$inferSelect;

/**
 * Why a transfer's link no longer opens, or null when it does. `countLimit` applies the download
 * limit (a visit that has already counted may go on downloading after the limit is reached).
 */
export function unavailableReason(t: TransferRow, now: Date, options: { countLimit: boolean }): LinkUnavailableReason | null {
  if (t.status === 'removed') return 'revoked';
  if (t.status === 'infected') return 'infected';
  if (t.status === 'expired' || t.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (t.purgedAt !== null) return 'revoked';
  if (options.countLimit && t.maxDownloads !== null && t.downloadCount >= t.maxDownloads) return 'limit_reached';
  return null;
}

const REASON_TEXT: Record<LinkUnavailableReason, string> = {
  expired: 'This link has expired.',
  revoked: 'This link was revoked by its sender.',
  limit_reached: 'This link has reached its download limit.',
  infected: 'This transfer was removed because a virus scan found malware in it.',
  suspended: 'This link is not available right now.',
};

export const linkUnavailable = (reason: LinkUnavailableReason) => new ApiError('link_unavailable', REASON_TEXT[reason], { reason });

/** Refuses (410 link_unavailable) unless the transfer can be downloaded now. */
export function assertAvailable(t: TransferRow, now: Date, options: { countLimit: boolean }): void {
  const reason = unavailableReason(t, now, options);
  if (reason) throw linkUnavailable(reason);
}

/**
 * The files a transfer offers for download, oldest first: those whose upload completed (and so
 * have their CRC-32). Files still uploading or failed are not offered.
 */
export async function downloadableFiles(db: Pick<Database, 'select'>, transferId: string): Promise<FileRow[]> {
  return db
    .select()
    .from(transferFiles)
    .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.state, 'complete'), isNotNull(transferFiles.crc32)))
    .orderBy(asc(transferFiles.seq));
}

export const isDownloadable = (f: FileRow) => f.state === 'complete' && f.crc32 !== null;

/** When a file's bytes were fixed: its upload's completion (deterministic, so zips and ETags are too). */
export const fileModifiedAt = (f: FileRow) => f.completedAt ?? f.createdAt;

export interface TransferZip {
  name: string;
  layout: ZipLayout;
  etag: string;
  lastModified: Date;
  files: FileRow[];
}

/** The whole-transfer zip: entries in file order, names from zipEntryNames, modified times from completion. */
export function transferZip(t: Pick<TransferRow, 'title' | 'createdAt' | 'finalizedAt'>, files: FileRow[], storage: Pick<FileStorage, 'read'>): TransferZip {
  const names = zipEntryNames(files.map((f) => ({ name: f.name, path: f.path })));
  const sources: ZipSource[] = files.map((f, i) => ({
    name: names[i]!,
    size: f.sizeBytes,
    crc32: Number.parseInt(f.crc32!, 16) >>> 0,
    modifiedAt: fileModifiedAt(f),
    open: (start, end) => storage.read(f.storageKey, { start, end }),
  }));
  const layout = zipLayout(sources);
  const hash = createHash('sha256').update('zip-v1');
  for (const s of sources) hash.update(`\n${s.name}\u0000${s.size}\u0000${s.crc32}\u0000${s.modifiedAt.getTime()}`);
  const lastModified = files.reduce((latest, f) => Math.max(latest, fileModifiedAt(f).getTime()), (t.finalizedAt ?? t.createdAt).getTime());
  return {
    name: zipFileName(t.title),
    layout,
    etag: `"zip-${hash.digest('base64url').slice(0, 32)}"`,
    lastModified: new Date(lastModified),
    files,
  };
}

export const fileEtag = (f: FileRow) => `"${f.id}-${f.crc32 ?? 'x'}-${f.sizeBytes}"`;

// C0/C1 controls, bidirectional overrides and isolates.
const UNSAFE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** `<title>.zip`, or `transfer.zip`: no controls, quotes or path separators, at most 200 characters. */
export function zipFileName(title: string | null): string {
  const base = (title ?? '')
    .normalize('NFC')
    .replace(UNSAFE, '')
    .replace(/["*:<>?|]/g, '')
    .replace(/[/\\]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  const cut = [...base].slice(0, 200).join('').trim();
  return `${cut || 'transfer'}.zip`;
}
