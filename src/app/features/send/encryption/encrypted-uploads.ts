import {
  SEALED_CHUNK_SIZE,
  blobSource,
  ciphertextSize,
  createEncryptedSource,
  deriveLinkKeys,
  fromBase64url,
  linkFragment,
  newSalt,
  sealFileMeta,
  sealThumbnail,
  sealTransferMeta,
  toBase64url,
  type EncryptedSource,
  type LinkKeys,
  type PlainSource,
  type TransferNote,
} from '../../../../crypto';
import { currentIntl } from '../../../lib/intl';
import type { FileToUpload, HeldUpload, UploadSource } from '../../../lib/uploads/upload-session';
import { storeSealedFile } from '../api/transfer-drafts';
import { makeThumbnail } from './thumbnail';

/**
 * Bytes per tus PATCH: tus asks the reader for one request's bytes at a time, so this (not the file) bounds what
 * is held in memory. A whole number of sealed chunks, so a request seldom seals a chunk the last one sealed too.
 */
export const ENCRYPTED_REQUEST_BYTES = 8 * SEALED_CHUNK_SIZE;

/** What the server is told about an encrypted file instead of its name, type and folder. */
export const SEALED_FILE_NAME = 'encrypted';
const SEALED_FILE_TYPE = 'application/octet-stream';

/** A file as the manifest lists it: the server's id, its header salt (base64url, as remembered) and its plaintext size. */
export interface EncryptedFile {
  fileId: string;
  salt: string;
  size: number;
}

export interface EncryptedUploadsOptions {
  /** The link key K: 32 random bytes, remembered with the draft until it is sent and then forgotten. */
  linkKey: Uint8Array;
  /** Files whose sealed metadata the server has already (an earlier visit sealed them). */
  sealed?: Iterable<string>;
  /** The draft the files belong to, known once the first batch made it. */
  transferId: () => string | null;
  /** Something worth remembering changed (a file was sealed). */
  onChange?: () => void;
  storeSealed?: typeof storeSealedFile;
}

/**
 * A file whose bytes are not a Blob of this page: read range by range from elsewhere (a vault file, decrypted as it is
 * read), with its preview image if it has one. Given to tus as the file to upload, in place of a File.
 */
export interface ReadableFile extends PlainSource {
  thumbnail(): Promise<Uint8Array | null>;
}

/** tus-js-client 4's FileSource, as its `fileReader.openFile` hands it over. */
interface TusFileSource {
  size: number;
  slice(start: number, end: number): Promise<{ value: Blob; done: boolean }>;
  close(): void;
}

/**
 * tus options that upload ciphertext made as tus reads it: `open` gives the container of the file tus was handed (a
 * Blob, or a ReadableFile), and tus asks it for one request's bytes at a time, from any offset. Shared by every
 * encrypting source (a transfer's, the vault's), so they differ only in their keys.
 */
export function encryptingTusOptions(open: (input: Blob | ReadableFile) => Promise<EncryptedSource>): Record<string, unknown> {
  const openFile = async (input: Blob | ReadableFile): Promise<TusFileSource> => {
    const source = await open(input);
    return {
      size: source.size,
      async slice(start, end) {
        const stop = Math.min(end, source.size);
        // A Blob, as tus-js-client wants: it reads `value.size` and hands `value` to XMLHttpRequest.send.
        return { value: new Blob([await source.read(start, stop)]), done: stop >= source.size };
      },
      close() {},
    };
  };
  return {
    chunkSize: ENCRYPTED_REQUEST_BYTES,
    // Otherwise tus sends the file's name and type in Upload-Metadata.
    allowedMetaFields: [],
    fileReader: { openFile },
  };
}

/** What tus is handed as the file, as the plaintext source it is read from. */
export const plainSourceOf = (input: Blob | ReadableFile): PlainSource => (input instanceof Blob ? blobSource(input) : input);

/**
 * The sending half of an end-to-end encrypted transfer, as the upload session's source. Each file is registered
 * under a neutral name with its container's exact size, C(L); tus reads it through a `fileReader` that encrypts the
 * asked range on demand (any offset, the same bytes each time for the file's remembered salt), so uploads pause,
 * resume after the tab was closed and renew tokens as plain ones do. Once a file's upload starts, its name (with
 * its folder), type, size and salt are sealed with its thumbnail and stored; at sending, the manifest and the
 * title and message are sealed into `e2eeMeta`. K itself is sent nowhere: it leaves this browser only in the link.
 */
export class EncryptedUploads implements UploadSource {
  readonly linkKey: Uint8Array;
  private keys: Promise<LinkKeys> | null = null;
  private readonly sealed: Set<string>;
  private readonly sealing = new Map<string, Promise<void>>();
  /** Held files by server id, so a sealing that failed can be tried again at sending. */
  private readonly held = new Map<string, { file: FileToUpload; data: Blob | ReadableFile; salt: Uint8Array }>();
  private readonly transferId: () => string | null;
  private readonly onChange: () => void;
  private readonly storeSealed: typeof storeSealedFile;

  constructor(options: EncryptedUploadsOptions) {
    this.linkKey = new Uint8Array(options.linkKey);
    this.sealed = new Set(options.sealed);
    this.transferId = options.transferId;
    this.onChange = options.onChange ?? (() => undefined);
    this.storeSealed = options.storeSealed ?? storeSealedFile;
  }

  /** The fragment that carries K (`v1.…`, without `#`): appended to the transfer's URL, never sent to the server. */
  get fragment(): string {
    return linkFragment(this.linkKey);
  }

  /** Server ids of the files sealed so far, for the draft to remember. */
  get sealedFileIds(): string[] {
    return [...this.sealed];
  }

  prepare(file: FileToUpload) {
    // A fresh random salt per registration: the same key never seals two plaintexts under one payload key.
    const register = { name: SEALED_FILE_NAME, size: ciphertextSize(file.size), mimeType: SEALED_FILE_TYPE, path: null };
    return Promise.resolve({ register, state: toBase64url(newSalt()) });
  }

  tusOptions(held: HeldUpload): Record<string, unknown> {
    return encryptingTusOptions(async (input) => {
      const { fileId, state } = await held.registered();
      const salt = fromBase64url(state);
      const source = await createEncryptedSource((await this.linkKeys()).content, plainSourceOf(input), { salt });
      this.held.set(fileId, { file: held.file, data: input, salt });
      // Sealed as its upload starts rather than once it ends: a tab closed between a file's last byte and its
      // sealing would leave a complete file nobody could name, and this way a re-added file is sealed anyway.
      this.sealFile(fileId).catch(() => undefined);
      return source;
    });
  }

  /** Seals a held file's metadata and thumbnail and stores them; once per file, and again only after a failure. */
  sealFile(fileId: string): Promise<void> {
    if (this.sealed.has(fileId)) return Promise.resolve();
    const running = this.sealing.get(fileId);
    if (running) return running;
    const held = this.held.get(fileId);
    const transferId = this.transferId();
    if (!held || transferId === null) {
      return Promise.reject(new Error(currentIntl().formatMessage({ id: 'send.encryption.notReadyToSeal', defaultMessage: 'This file is not ready to be sealed.' })));
    }
    const run = (async () => {
      const keys = await this.linkKeys();
      const { file, data, salt } = held;
      const type = file.mimeType ?? 'application/octet-stream';
      const name = file.path ? `${file.path}/${file.name}` : file.name;
      const thumbnail = await (data instanceof Blob ? makeThumbnail(data, type, file.name) : data.thumbnail()).catch(() => null);
      const [meta, thumb] = await Promise.all([
        sealFileMeta(keys, transferId, fileId, { name, type, size: data.size, salt }),
        thumbnail ? sealThumbnail(keys, transferId, fileId, thumbnail) : Promise.resolve(''),
      ]);
      await this.storeSealed(transferId, fileId, { meta, thumb });
      this.sealed.add(fileId);
      this.onChange();
    })().finally(() => this.sealing.delete(fileId));
    this.sealing.set(fileId, run);
    return run;
  }

  /**
   * Waits until every file of the draft is sealed (trying failed ones again), then seals `e2eeMeta`: the manifest
   * of every file's id, salt and size, and the title and message when given.
   */
  async sealTransfer(transferId: string, files: readonly EncryptedFile[], note: TransferNote | null): Promise<string> {
    for (const file of files) {
      if (this.sealed.has(file.fileId)) continue;
      if (!this.sealing.has(file.fileId) && !this.held.has(file.fileId)) {
        throw new Error(
          currentIntl().formatMessage({
            id: 'send.encryption.earlierFileUnsealed',
            defaultMessage: 'A file uploaded in an earlier visit has no encrypted name yet: remove it (start a new transfer) or add it again, then send.',
          }),
        );
      }
      await this.sealFile(file.fileId);
    }
    const manifest = files.map((file) => ({ id: file.fileId, salt: fromBase64url(file.salt), size: file.size }));
    return sealTransferMeta(await this.linkKeys(), transferId, { manifest, note });
  }

  private linkKeys(): Promise<LinkKeys> {
    this.keys ??= deriveLinkKeys(this.linkKey);
    return this.keys;
  }
}
