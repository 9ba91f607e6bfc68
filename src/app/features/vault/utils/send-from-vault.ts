import { Upload, type DetailedError, type UploadOptions } from 'tus-js-client';
import type { Transfer } from '../../../../contract/transfers';
import { createDecryptingSource, fileContentKey, openVaultThumbnail, unwrapFileKey, type MasterKey, type TransferNote } from '../../../../crypto';
import { errorFromResponse } from '../../../lib/api-error';
import { currentIntl } from '../../../lib/intl';
import { RETRY_DELAYS, shouldRetryUpload } from '../../../lib/uploads/upload-retry';
import type { FileToUpload } from '../../../lib/uploads/upload-session';
import { UPLOAD_TOKEN_HEADER } from '../../../lib/uploads/upload-token';
import { finalizeTransfer } from '../../transfers';
import { DraftSession, type ReadableFile } from '../../send';
import { getVaultItemDownload } from '../api/vault-api';
import type { OpenedVaultFile } from './open-contents';

/**
 * Sends vault files as an end-to-end encrypted transfer without downloading them: each file is read from the vault
 * range by range (a Range request of its ciphertext, opened chunk by chunk with its own key), encrypted again under
 * the new transfer's link key as tus asks for it, and uploaded through the same draft, tus endpoint and tokens as the
 * New transfer page's encrypted uploads. Only one chunk of a file is ever in memory; the link key is held only here.
 */

/** The signed link lasts an hour; one older than this is asked for again before the next range. */
const LINK_REFRESH_MS = 45 * 60_000;

/** Never written anywhere: a vault send is one visit, and its link key must not outlive it in the browser's storage. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

/** The vault file's plaintext, read as the re-encrypting uploader asks for it. */
async function vaultFileReader(master: MasterKey, file: OpenedVaultFile): Promise<ReadableFile> {
  const { item, meta } = file;
  if (!meta?.salt || meta.size === undefined)
    throw new Error(
      currentIntl().formatMessage(
        { id: 'vault.send.unfinished', defaultMessage: '{name} cannot be sent: its upload into the vault did not finish.' },
        { name: file.listed.name },
      ),
    );
  const fileKey = await unwrapFileKey(master, item.id, item.wrappedKey);
  const contentKey = await fileContentKey(fileKey);
  fileKey.fill(0);
  let link: { url: string; at: number } | null = null;
  const readCipher = async (start: number, end: number) => {
    if (!link || Date.now() - link.at > LINK_REFRESH_MS) link = { url: (await getVaultItemDownload(item.id)).url, at: Date.now() };
    const response = await fetch(link.url, {
      headers: { Range: `bytes=${start}-${end - 1}` },
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      cache: 'no-store',
    });
    if (!response.ok) throw await errorFromResponse(response);
    return new Uint8Array(await response.arrayBuffer());
  };
  const source = await createDecryptingSource(contentKey, { salt: meta.salt, size: meta.size }, readCipher);
  return {
    ...source,
    thumbnail: async () => (item.sealedThumb ? openVaultThumbnail(master, item.id, item.sealedThumb) : null),
  };
}

/** tus-js-client's own rule, as @uppy/tus leaves it: retry unless the server answered a client error (but 409 and 423). */
function retriedByDefault(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus();
  return status === undefined || status === 409 || status === 423 || status >= 500;
}

function upload(session: DraftSession, file: FileToUpload, readable: ReadableFile, onBytes: (n: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let reported = 0;
    const options: UploadOptions = {
      endpoint: '/files/',
      ...(session.tusOptionsFor(file) as Partial<UploadOptions>),
      retryDelays: RETRY_DELAYS,
      // Nothing about the file in this browser's storage: it resumes only within this visit.
      storeFingerprintForResuming: false,
      onBeforeRequest: async (request) => request.setHeader(UPLOAD_TOKEN_HEADER, await session.tokenFor(file.key)),
      onShouldRetry: (error) => shouldRetryUpload(session, file.key, error, retriedByDefault),
      onProgress: (sent) => {
        onBytes(sent - reported);
        reported = sent;
      },
      onSuccess: () => resolve(),
      onError: reject,
    };
    // The reader (EncryptedUploads' fileReader) takes what it is given: here a vault file's plaintext, not a Blob.
    new Upload(readable as unknown as Blob, options).start();
  });
}

export interface SentFromVault {
  transfer: Transfer;
  /** `v1.<key>`: the link's fragment, shown once. */
  fragment: string;
}

export async function sendFromVault(options: {
  workspaceId: string;
  master: MasterKey;
  files: readonly OpenedVaultFile[];
  note: TransferNote | null;
  /** Ciphertext bytes uploaded, as they go. */
  onBytes?: (n: number) => void;
}): Promise<SentFromVault> {
  const session = new DraftSession({ workspaceId: options.workspaceId, storage: memoryStorage() });
  session.setEncrypted(true);
  const toUpload: FileToUpload[] = options.files.map((file) => ({
    key: `vault:${file.item.id}`,
    name: file.listed.name,
    size: file.meta?.size ?? 0,
    mimeType: file.listed.mimeType,
    path: null,
  }));
  const readers = await Promise.all(options.files.map((file) => vaultFileReader(options.master, file)));
  await session.registerFiles(toUpload);
  for (const [i, file] of toUpload.entries()) {
    const failure = session.failureOf(file.key);
    if (failure) throw new Error(failure);
    await upload(session, file, readers[i]!, options.onBytes ?? (() => {}));
  }
  const transferId = session.transferId;
  const fragment = session.encryption?.fragment;
  if (!transferId || !fragment) throw new Error(currentIntl().formatMessage({ id: 'vault.send.notMade', defaultMessage: 'The transfer could not be made.' }));
  const transfer = await finalizeTransfer(transferId, await session.sealTransfer(options.note));
  session.forget();
  return { transfer, fragment };
}
