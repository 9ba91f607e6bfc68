import { fromBase64url, toBase64url } from './base64url.js';
import { equalBytes } from './bytes.js';
import { SALT_SIZE } from './container.js';
import { E2eeError } from './errors.js';
import { assertKeyCheck, keyCheckValue, type LinkKeys } from './keys.js';
import { openBytes, openJson, sealBytes, sealJson } from './sealed.js';

/** Purpose strings of the sealed values: part of each value's additional data, so one kind never opens as another. */
export const sealPurposes = { fileMeta: 'file meta', thumbnail: 'thumbnail', manifest: 'manifest', transferNote: 'transfer note' } as const;

/** What the server is not told about a file. `size` is the plaintext size; `salt` is its container's header salt. */
export interface FileMeta {
  name: string;
  type: string;
  size: number;
  salt: Uint8Array;
}

/** A file as the sender's manifest lists it, or as the recipient found it (id from the server, salt and size from its sealed metadata). */
export interface ManifestEntry {
  id: string;
  salt: Uint8Array;
  size: number;
}

/** The transfer's title and message, sealed into `e2eeMeta` instead of being sent in the clear. */
export interface TransferNote {
  title?: string;
  message?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSize = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function readSalt(v: unknown, what: string): Uint8Array<ArrayBuffer> {
  const salt = typeof v === 'string' ? fromBase64url(v) : undefined;
  if (salt?.length !== SALT_SIZE) throw new E2eeError('malformed', `${what} has no valid salt`);
  return salt;
}

export function sealFileMeta(keys: LinkKeys, transferId: string, fileId: string, meta: FileMeta): Promise<string> {
  const value = { name: meta.name, type: meta.type, size: meta.size, salt: toBase64url(meta.salt) };
  return sealJson(keys.meta, value, { purpose: sealPurposes.fileMeta, transferId, fileId });
}

export async function openFileMeta(keys: LinkKeys, transferId: string, fileId: string, sealed: string): Promise<FileMeta> {
  const v = await openJson(keys.meta, sealed, { purpose: sealPurposes.fileMeta, transferId, fileId });
  if (!isRecord(v) || typeof v.name !== 'string' || typeof v.type !== 'string' || !isSize(v.size)) {
    throw new E2eeError('malformed', "A file's sealed metadata is incomplete");
  }
  return { name: v.name, type: v.type, size: v.size, salt: readSalt(v.salt, "A file's sealed metadata") };
}

export const sealThumbnail = (keys: LinkKeys, transferId: string, fileId: string, image: Uint8Array): Promise<string> =>
  sealBytes(keys.thumb, image, { purpose: sealPurposes.thumbnail, transferId, fileId });

export const openThumbnail = (keys: LinkKeys, transferId: string, fileId: string, sealed: string): Promise<Uint8Array<ArrayBuffer>> =>
  openBytes(keys.thumb, sealed, { purpose: sealPurposes.thumbnail, transferId, fileId });

export function sealTransferNote(keys: LinkKeys, transferId: string, note: TransferNote): Promise<string> {
  return sealJson(keys.meta, { title: note.title, message: note.message }, { purpose: sealPurposes.transferNote, transferId });
}

export async function openTransferNote(keys: LinkKeys, transferId: string, sealed: string): Promise<TransferNote> {
  const v = await openJson(keys.meta, sealed, { purpose: sealPurposes.transferNote, transferId });
  const optionalText = (t: unknown) => t === undefined || typeof t === 'string';
  if (!isRecord(v) || !optionalText(v.title) || !optionalText(v.message)) throw new E2eeError('malformed', "The transfer's sealed note is malformed");
  return { ...(v.title === undefined ? {} : { title: v.title as string }), ...(v.message === undefined ? {} : { message: v.message as string }) };
}

/** Every file of the transfer as the sender made it; the recipient compares it with what the server lists. */
export function sealManifest(keys: LinkKeys, transferId: string, files: readonly ManifestEntry[]): Promise<string> {
  if (new Set(files.map((f) => f.id)).size !== files.length) throw new RangeError('A manifest lists each file once');
  const value = { files: files.map((f) => ({ id: f.id, salt: toBase64url(f.salt), size: f.size })) };
  return sealJson(keys.manifest, value, { purpose: sealPurposes.manifest, transferId });
}

export async function openManifest(keys: LinkKeys, transferId: string, sealed: string): Promise<ManifestEntry[]> {
  const v = await openJson(keys.manifest, sealed, { purpose: sealPurposes.manifest, transferId });
  if (!isRecord(v) || !Array.isArray(v.files)) throw new E2eeError('malformed', "The transfer's sealed manifest is malformed");
  return v.files.map((f: unknown) => {
    if (!isRecord(f) || typeof f.id !== 'string' || !isSize(f.size)) throw new E2eeError('malformed', "The transfer's sealed manifest is malformed");
    return { id: f.id, salt: readSalt(f.salt, 'A manifest entry'), size: f.size };
  });
}

export interface ManifestCheck {
  ok: boolean;
  /** Listed by the server, not in the manifest (or listed twice). */
  added: string[];
  /** In the manifest, not listed by the server. */
  dropped: string[];
  /** Listed under a manifest id with another salt or size: another file's bytes behind this file's id. */
  swapped: string[];
}

/** Compares the manifest with the files the server listed, each with the salt and size its sealed metadata gave. */
export function checkManifest(manifest: readonly ManifestEntry[], listed: readonly ManifestEntry[]): ManifestCheck {
  const expected = new Map(manifest.map((f) => [f.id, f]));
  const seen = new Set<string>();
  const added: string[] = [];
  const swapped: string[] = [];
  for (const file of listed) {
    const want = expected.get(file.id);
    if (!want || seen.has(file.id)) added.push(file.id);
    else if (want.size !== file.size || !equalBytes(want.salt, file.salt)) swapped.push(file.id);
    seen.add(file.id);
  }
  const dropped = manifest.filter((f) => !seen.has(f.id)).map((f) => f.id);
  return { ok: !added.length && !dropped.length && !swapped.length, added, dropped, swapped };
}

/** What `e2eeMeta` holds once opened: the sender's manifest and, when given, the title and message. */
export interface TransferMeta {
  manifest: ManifestEntry[];
  note: TransferNote | null;
}

/**
 * The text sent as `e2eeMeta` at finalize: JSON `{ v: 1, keyCheck, manifest, note }` where `keyCheck` proves the link
 * key (so a wrong key is named before anything is fetched), and `manifest` and `note` are sealed. The server stores it
 * as it is and hands it to every visitor.
 */
export async function sealTransferMeta(keys: LinkKeys, transferId: string, meta: TransferMeta): Promise<string> {
  const [keyCheck, manifest, note] = await Promise.all([
    keyCheckValue(keys),
    sealManifest(keys, transferId, meta.manifest),
    meta.note && (meta.note.title || meta.note.message) ? sealTransferNote(keys, transferId, meta.note) : Promise.resolve(null),
  ]);
  return JSON.stringify({ v: 1, keyCheck, manifest, note });
}

/** Opens `e2eeMeta`: throws `wrong_key` when the link's key is not this transfer's, `malformed` or `tampered` when the text was changed. */
export async function openTransferMeta(keys: LinkKeys, transferId: string, text: string): Promise<TransferMeta> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new E2eeError('malformed', "The transfer's sealed metadata is malformed");
  }
  if (!isRecord(v) || v.v !== 1 || typeof v.keyCheck !== 'string' || typeof v.manifest !== 'string' || (v.note !== null && typeof v.note !== 'string')) {
    throw new E2eeError('malformed', "The transfer's sealed metadata is malformed");
  }
  await assertKeyCheck(keys, v.keyCheck);
  const [manifest, note] = await Promise.all([openManifest(keys, transferId, v.manifest), v.note ? openTransferNote(keys, transferId, v.note) : null]);
  return { manifest, note };
}
