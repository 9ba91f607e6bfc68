import { createHash } from 'node:crypto';
import type { FileRecord } from '../db/schema/index.js';
import type { PlacedFile } from '../files/owners.js';
import type { FileStorage } from '../storage/storage.js';
import { zipEntryNames, zipLayout, type ZipLayout, type ZipSource } from './zip.js';

/** What a download serves, for any owner: one stored file, or a zip of a list of files with their paths. */

/** When a file's bytes were fixed: its upload's completion (deterministic, so zips and ETags are too). */
export const fileModifiedAt = (f: Pick<FileRecord, 'completedAt' | 'createdAt'>) => f.completedAt ?? f.createdAt;

export const fileEtag = (f: Pick<FileRecord, 'id' | 'crc32' | 'sizeBytes'>) => `"${f.id}-${f.crc32 ?? 'x'}-${f.sizeBytes}"`;

export interface ZipDownload {
  name: string;
  layout: ZipLayout;
  etag: string;
  lastModified: Date;
  files: FileRecord[];
}

/**
 * A zip of complete files: entries in the order given, names from zipEntryNames (paths kept,
 * duplicates numbered), modified times from completion. Laid out up front (STORE, the stored
 * CRCs), so it has a size and any range of it can be served. `since` is when the set was fixed
 * (a transfer's sending), the earliest Last-Modified it can have.
 */
export function zipDownload(name: string, placed: PlacedFile[], since: Date, storage: Pick<FileStorage, 'read'>): ZipDownload {
  const names = zipEntryNames(placed.map(({ file, path }) => ({ name: file.name, path })));
  const sources: ZipSource[] = placed.map(({ file: f }, i) => ({
    name: names[i]!,
    size: f.sizeBytes,
    crc32: Number.parseInt(f.crc32!, 16) >>> 0,
    modifiedAt: fileModifiedAt(f),
    open: (start, end) => storage.read(f.storageKey, { start, end }),
  }));
  const layout = zipLayout(sources);
  const hash = createHash('sha256').update('zip-v1');
  for (const s of sources) hash.update(`\n${s.name}\u0000${s.size}\u0000${s.crc32}\u0000${s.modifiedAt.getTime()}`);
  const lastModified = placed.reduce((latest, { file }) => Math.max(latest, fileModifiedAt(file).getTime()), since.getTime());
  return { name, layout, etag: `"zip-${hash.digest('base64url').slice(0, 32)}"`, lastModified: new Date(lastModified), files: placed.map((p) => p.file) };
}

// C0/C1 controls, bidirectional overrides and isolates.
const UNSAFE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** `<title>.zip`, or `<fallback>.zip`: no controls, quotes or path separators, at most 200 characters. */
export function zipFileName(title: string | null, fallback = 'transfer'): string {
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
  return `${cut || fallback}.zip`;
}
