import type { PublicTransfer } from '../../../../contract/public';
import {
  E2eeError,
  checkManifest,
  ciphertextSize,
  deriveLinkKeys,
  openFileMeta,
  openThumbnail,
  openTransferMeta,
  parseLinkFragment,
  type LinkKeys,
  type ManifestEntry,
} from '../../../../crypto';

/**
 * Opens an end-to-end encrypted transfer in the browser (issue 17): the link key from the URL fragment, then
 * `e2eeMeta` (key check first, so a wrong or damaged link is named before anything else happens), then every
 * file's sealed metadata and thumbnail, then the sender's manifest against what the server listed.
 * Nothing here makes a request: it works on the transfer the page already loaded.
 */

/** A file as its sender described it, opened from its sealed metadata. */
export interface OpenedFile {
  id: string;
  /** The file's own name (the last segment of the sealed name). */
  name: string;
  /** The folders above it, '/'-separated, from the sealed name; null at top level. */
  path: string | null;
  type: string;
  /** Plaintext bytes. */
  size: number;
  salt: Uint8Array;
  /** The decrypted thumbnail (JPEG, PNG or WebP), or null. */
  thumbnail: { bytes: Uint8Array<ArrayBuffer>; type: string } | null;
}

/** Files the server lists differently from the sender's manifest: any of them means the downloads are refused. */
export interface FileListMismatch {
  /** Listed by the server, unknown to the sender. */
  added: number;
  /** Sent by the sender, not listed. */
  dropped: number;
  /** Listed under the sender's id with other contents, or with metadata that does not open. */
  changed: number;
}

export type OpenedTransfer =
  /** The link has no key, a damaged one, or one that does not open this transfer. */
  | { kind: 'bad_key'; reason: 'missing' | 'damaged' | 'wrong' }
  /** The key is right but the transfer's sealed metadata was changed on the server. */
  | { kind: 'unreadable' }
  | { kind: 'opened'; keys: LinkKeys; title: string | null; message: string | null; files: OpenedFile[]; mismatch: FileListMismatch | null };

/**
 * The link key from a URL fragment (`#v1.<key>`), read by the caller from `location.hash` and nowhere else:
 * a fragment never reaches the server, a log or a Referer.
 */
function linkKeyFrom(fragment: string): Uint8Array<ArrayBuffer> | 'missing' | 'damaged' {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (!text) return 'missing';
  try {
    return parseLinkFragment(text);
  } catch {
    return 'damaged';
  }
}

/** Splits a sealed name `folder/sub/name.ext` into the name and its folders, dropping empty, `.` and `..` segments. */
export function splitSealedName(sealedName: string): { name: string; path: string | null } {
  // eslint-disable-next-line no-control-regex
  const segments = sealedName.replace(/[\u0000-\u001f\u007f]/g, '').split(/[/\\]/).map((s) => s.trim()).filter((s) => s && s !== '.' && s !== '..');
  const name = segments.pop() ?? 'file';
  return { name, path: segments.length > 0 ? segments.join('/') : null };
}

/** The image type of decrypted thumbnail bytes, by their signature: only formats a canvas makes are shown. */
export function thumbnailType(bytes: Uint8Array): string | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

async function openThumb(keys: LinkKeys, transferId: string, fileId: string, sealed: string | null): Promise<OpenedFile['thumbnail']> {
  if (!sealed) return null;
  try {
    const bytes = await openThumbnail(keys, transferId, fileId, sealed);
    const type = thumbnailType(bytes);
    return type ? { bytes, type } : null;
  } catch {
    // A thumbnail that does not open is only a missing preview: the file itself is checked by its metadata and the manifest.
    return null;
  }
}

export async function openEncryptedTransfer(fragment: string, transfer: PublicTransfer): Promise<OpenedTransfer> {
  const linkKey = linkKeyFrom(fragment);
  if (typeof linkKey === 'string') return { kind: 'bad_key', reason: linkKey };
  const keys = await deriveLinkKeys(linkKey);
  if (!transfer.transferId || !transfer.e2eeMeta) return { kind: 'unreadable' };
  const transferId = transfer.transferId;

  let meta;
  try {
    meta = await openTransferMeta(keys, transferId, transfer.e2eeMeta);
  } catch (error) {
    if (error instanceof E2eeError && error.reason === 'wrong_key') return { kind: 'bad_key', reason: 'wrong' };
    return { kind: 'unreadable' };
  }

  const opened = await Promise.all(
    transfer.files.map(async (file) => {
      try {
        if (!file.sealedMeta) return { id: file.id, file: null };
        const fileMeta = await openFileMeta(keys, transferId, file.id, file.sealedMeta);
        // The server's size is the container's: any other means other bytes than the sender's.
        if (file.sizeBytes !== ciphertextSize(fileMeta.size)) return { id: file.id, file: null };
        const { name, path } = splitSealedName(fileMeta.name);
        const thumbnail = await openThumb(keys, transferId, file.id, file.sealedThumb);
        const shown: OpenedFile = { id: file.id, name, path, type: fileMeta.type, size: fileMeta.size, salt: fileMeta.salt, thumbnail };
        return { id: file.id, file: shown };
      } catch {
        return { id: file.id, file: null };
      }
    }),
  );
  const files = opened.flatMap((o) => (o.file ? [o.file] : []));
  const unreadable = new Set(opened.filter((o) => !o.file).map((o) => o.id));
  const listed: ManifestEntry[] = files.map((f) => ({ id: f.id, salt: f.salt, size: f.size }));
  const check = checkManifest(meta.manifest, listed);
  const sent = new Set(meta.manifest.map((f) => f.id));
  const unreadableSent = [...unreadable].filter((id) => sent.has(id)).length;
  const mismatch: FileListMismatch = {
    added: check.added.length + (unreadable.size - unreadableSent),
    dropped: check.dropped.filter((id) => !unreadable.has(id)).length,
    changed: check.swapped.length + unreadableSent,
  };
  const ok = mismatch.added + mismatch.dropped + mismatch.changed === 0;
  return {
    kind: 'opened',
    keys,
    title: meta.note?.title?.trim() || null,
    message: meta.note?.message?.trim() || null,
    files,
    mismatch: ok ? null : mismatch,
  };
}
