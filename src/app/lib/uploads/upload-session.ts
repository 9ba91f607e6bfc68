import type { UploadTarget } from '../../../contract/transfers';
import { isApiRequestError } from '../api-error';
import { currentIntl } from '../intl';
import { isExpiredTokenError, renewUploadToken } from './upload-token';

/** One file as the server registers it; `path` is the folder part of a dropped folder's relative path. */
export interface FileToRegister {
  name: string;
  size: number;
  mimeType?: string;
  path?: string | null;
}

/** A file the uploader holds; `key` is Uppy's file id, which is stable across visits for the same file. */
export interface FileToUpload extends FileToRegister {
  key: string;
  /** Where the file goes inside its owner (a collection's folder), as the page that added it said; absent when the owner has no such places. */
  destination?: string;
}

const TOP_LEVEL = 'top';

/** The uploader's destination for a folder of its owner (null: the top level); part of each file's identity there. */
export const destinationOf = (folderId: string | null) => folderId ?? TOP_LEVEL;
export const folderIdOf = (destination: string | undefined) => (destination === undefined || destination === TOP_LEVEL ? null : destination);

export interface RememberedFile {
  fileId: string;
  name: string;
  size: number;
  path: string | null;
  destination?: string;
  uploadToken: string;
  uploadTokenExpiresAt: string;
  /** What the session's source needs to give the same bytes again after a reload (an encryption salt); absent without a source. */
  sourceState?: string;
  /** Every byte is on the server: the file, added again after a reload, is done, not uploaded again. */
  uploaded?: boolean;
}

/** What survives closing the tab: enough to find the owner again and keep uploading to it. */
export interface RememberedUploads {
  /** What the files were registered with: a transfer's draft, a collection. */
  ownerId: string;
  files: Record<string, RememberedFile>;
}

/**
 * Where the files go: the one part of an upload that differs between transfers and collections.
 * The rest (tus, tokens and their renewal, retries, resuming after the tab was closed) is shared.
 */
export interface UploadRegistrar {
  /**
   * Registers a batch with one request and gives each file's upload target, in order. `ownerId` is
   * null until a first batch made the owner (a transfer's draft is created with its first files).
   */
  register(files: FileToUpload[], ownerId: string | null): Promise<{ ownerId: string; targets: UploadTarget[] }>;
  /** Takes back a file removed from the uploader before it finished. */
  unregister(ownerId: string, fileId: string): Promise<void>;
}

/** A file the uploader holds, as a source sees it: `registered` waits for the server's registration of it. */
export interface HeldUpload {
  key: string;
  file: FileToUpload;
  registered(): Promise<{ fileId: string; state: string }>;
}

/**
 * What tus uploads when it is not the file's bytes as they are (say, the file encrypted as tus reads it): the
 * shared session stays unaware of why. The server registers what `prepare` says (its size must be exactly what
 * the reader yields), and the session remembers each file's `state` beside its token, so a file added again after
 * the tab was closed gets the same bytes from any offset.
 */
export interface UploadSource {
  prepare(file: FileToUpload): Promise<{ register: FileToRegister; state: string }>;
  /** tus-js-client options for one file (Uppy spreads them into the file's upload), e.g. a `fileReader`. */
  tusOptions(file: HeldUpload): Record<string, unknown>;
}

export interface UploadSessionOptions {
  /** Where the session is remembered (localStorage), so uploads resume after the tab was closed. */
  storageKey: string;
  registrar: UploadRegistrar;
  /** Known up front for an owner that exists already (a collection); null when the first batch makes it (a draft). */
  ownerId?: string | null;
  storage?: Storage;
  now?: () => number;
  /** A token with less than this left is renewed before it is used. */
  renewMarginMs?: number;
  renew?: typeof renewUploadToken;
  source?: UploadSource | null;
}

/** The file cannot continue: its upload token expired before it could be renewed. */
export class UploadTokenExpiredError extends Error {
  override readonly name = 'UploadTokenExpiredError';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : currentIntl().formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' });
}

/** A file the server does not know (any more): said in the page's language when the uploader shows it. */
const notRegistered = () => currentIntl().formatMessage({ id: 'upload.session.notRegistered', defaultMessage: 'This file is not registered for upload.' });

/**
 * The server's side of the files an uploader holds. Files are registered in batches as they are
 * added, removed files are taken back, and each file's upload token is kept fresh. Calls that change
 * the registration run one after another, so a batch added while the owner is being created lands
 * in that owner. The owner and the tokens are remembered under `storageKey`.
 */
export class UploadSession {
  ownerId: string | null;
  private readonly files = new Map<string, RememberedFile>();
  private readonly registrations = new Map<string, Promise<void>>();
  private readonly renewals = new Map<string, Promise<string>>();
  private readonly rejected = new Set<string>();
  private readonly failures = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly registrar: UploadRegistrar;
  private readonly renew: typeof renewUploadToken;
  private readonly storage: Storage | undefined;
  private readonly now: () => number;
  private readonly renewMarginMs: number;
  private readonly storageKey: string;
  /** Fixed once files are registered through it: their registered sizes are its. */
  protected source: UploadSource | null;

  constructor(options: UploadSessionOptions) {
    this.ownerId = options.ownerId ?? null;
    this.registrar = options.registrar;
    this.renew = options.renew ?? renewUploadToken;
    this.storage = options.storage ?? (typeof window === 'undefined' ? undefined : window.localStorage);
    this.now = options.now ?? Date.now;
    this.renewMarginMs = options.renewMarginMs ?? 10 * 60_000;
    this.storageKey = options.storageKey;
    this.source = options.source ?? null;
  }

  /** What an earlier visit left, if any; resuming it makes re-added files continue where they stopped. */
  remembered(): RememberedUploads | null {
    try {
      const raw = this.storage?.getItem(this.storageKey);
      if (!raw) return null;
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      const ownerId = this.rememberedOwnerId(parsed);
      return typeof ownerId === 'string' && parsed.files && typeof parsed.files === 'object'
        ? { ownerId, files: parsed.files as RememberedUploads['files'] }
        : null;
    } catch {
      return null;
    }
  }

  /** The owner's id in what was stored; a session whose format changed reads its older records here. */
  protected rememberedOwnerId(stored: Record<string, unknown>): unknown {
    return stored.ownerId;
  }

  resume(remembered: RememberedUploads) {
    this.ownerId = remembered.ownerId;
    for (const [key, file] of Object.entries(remembered.files)) this.files.set(key, file);
  }

  /** Registered files the uploader does not hold (yet). */
  filesNotIn(keys: Iterable<string>): (RememberedFile & { key: string })[] {
    const held = new Set(keys);
    return [...this.files].filter(([key]) => !held.has(key)).map(([key, file]) => ({ key, ...file }));
  }

  has(key: string): boolean {
    return this.files.has(key);
  }

  /** The server's id of a registered file. */
  fileIdOf(key: string): string | undefined {
    return this.files.get(key)?.fileId;
  }

  get fileCount(): number {
    return this.files.size;
  }

  /** Registers a batch with one request (files registered already, say after a reload, are not sent again). */
  registerFiles(inputs: FileToUpload[]): Promise<void> {
    const batch = inputs.filter((f) => !this.files.has(f.key) && !this.registrations.has(f.key));
    if (batch.length === 0) return Promise.resolve();
    const run = this.enqueue(async () => {
      const source = this.source;
      const prepared = source ? await Promise.all(batch.map((input) => source.prepare(input))) : null;
      const toRegister = prepared ? batch.map((input, index) => ({ ...input, ...prepared[index]!.register, key: input.key })) : batch;
      const { ownerId, targets } = await this.registrar.register(toRegister, this.ownerId);
      this.ownerId = ownerId;
      batch.forEach((input, index) => {
        const target = targets[index];
        if (!target) return;
        this.files.set(input.key, {
          fileId: target.id,
          name: input.name,
          size: input.size,
          path: input.path ?? null,
          ...(input.destination !== undefined ? { destination: input.destination } : {}),
          uploadToken: target.uploadToken,
          uploadTokenExpiresAt: target.uploadTokenExpiresAt,
          ...(prepared ? { sourceState: prepared[index]!.state } : {}),
        });
      });
      this.persist();
    });
    for (const input of batch) {
      const registration = run.then(
        () => {
          if (!this.files.has(input.key)) throw new Error(currentIntl().formatMessage({ id: 'upload.session.serverDidNotRegister', defaultMessage: 'The server did not register this file.' }));
        },
        (error: unknown) => {
          this.failures.set(input.key, messageOf(error));
          throw error;
        },
      );
      registration.catch(() => undefined);
      this.registrations.set(input.key, registration);
    }
    return run.finally(() => {
      for (const input of batch) this.registrations.delete(input.key);
    });
  }

  /** Takes a file back from the server (if it got that far). */
  removeFile(key: string): Promise<void> {
    return this.enqueue(async () => {
      await this.registrations.get(key)?.catch(() => undefined);
      const file = this.files.get(key);
      this.failures.delete(key);
      if (!file || this.ownerId === null) return;
      try {
        await this.registrar.unregister(this.ownerId, file.fileId);
      } catch (error) {
        // Already gone is what we wanted.
        if (!(isApiRequestError(error) && error.status === 404)) throw error;
      }
      this.files.delete(key);
      this.persist();
    });
  }

  /**
   * Stops remembering a file whose upload finished: it is the owner's now. Only for owners that
   * outlive the session (a collection); a draft keeps its files until it is sent.
   */
  forgetFile(key: string) {
    if (!this.files.delete(key)) return;
    this.failures.delete(key);
    this.rejected.delete(key);
    this.persist();
  }

  /**
   * The file's last byte is on the server (the uploader saw it finish, or the owner lists it as
   * complete). Remembered, so the same file added again after the tab was closed is known to be done:
   * tus forgets a finished upload's URL, and a new upload of a complete file is refused (409).
   */
  markUploaded(key: string) {
    const file = this.files.get(key);
    if (!file || file.uploaded) return;
    this.files.set(key, { ...file, uploaded: true });
    this.persist();
  }

  /** Marks the registered files whose server ids are given as uploaded (what the owner says is complete). */
  markUploadedFiles(fileIds: Iterable<string>) {
    const complete = new Set(fileIds);
    for (const [key, file] of this.files) if (complete.has(file.fileId)) this.markUploaded(key);
  }

  isUploaded(key: string): boolean {
    return this.files.get(key)?.uploaded === true;
  }

  /** Per-file tus options from the session's source (none without one); Uppy spreads them into the file's upload. */
  tusOptionsFor(file: FileToUpload): Record<string, unknown> {
    if (!this.source) return {};
    const registered = async () => {
      await this.registrations.get(file.key);
      const remembered = this.files.get(file.key);
      if (!remembered) throw new Error(this.failures.get(file.key) ?? notRegistered());
      return { fileId: remembered.fileId, state: remembered.sourceState ?? '' };
    };
    return this.source.tusOptions({ key: file.key, file, registered });
  }

  /** The token to send with the next tus request of this file: renewed first when it is about to expire or was refused. */
  async tokenFor(key: string): Promise<string> {
    await this.registrations.get(key);
    const file = this.files.get(key);
    if (!file) throw new Error(this.failures.get(key) ?? notRegistered());
    const left = Date.parse(file.uploadTokenExpiresAt) - this.now();
    if (this.rejected.has(key) || left < this.renewMarginMs) return this.renewToken(key);
    return file.uploadToken;
  }

  /** The server refused the file's token (401): the next request renews it first. */
  markTokenRejected(key: string) {
    this.rejected.add(key);
  }

  /** Why a file cannot continue, if it cannot. */
  failureOf(key: string): string | undefined {
    return this.failures.get(key);
  }

  /** Renews every held token that is close to expiry; for a timer, so remembered tokens stay usable. */
  async renewExpiring(keys: Iterable<string>): Promise<void> {
    const due = [...keys].filter((key) => {
      const file = this.files.get(key);
      return file && Date.parse(file.uploadTokenExpiresAt) - this.now() < this.renewMarginMs && !this.failures.has(key);
    });
    await Promise.all(due.map((key) => this.renewToken(key).catch(() => undefined)));
  }

  renewToken(key: string): Promise<string> {
    const running = this.renewals.get(key);
    if (running) return running;
    const file = this.files.get(key);
    if (!file) return Promise.reject(new Error(notRegistered()));
    const renewal = this.renew(file.uploadToken)
      .then(({ uploadToken, expiresAt }) => {
        const current = this.files.get(key);
        if (current) this.files.set(key, { ...current, uploadToken, uploadTokenExpiresAt: expiresAt });
        this.rejected.delete(key);
        this.persist();
        return uploadToken;
      })
      .catch((error: unknown) => {
        if (isExpiredTokenError(error)) {
          const message = currentIntl().formatMessage({ id: 'upload.session.permissionExpired', defaultMessage: 'The upload permission for this file expired. Remove the file and add it again.' });
          this.failures.set(key, message);
          throw new UploadTokenExpiredError(message);
        }
        throw error;
      })
      .finally(() => this.renewals.delete(key));
    this.renewals.set(key, renewal);
    return renewal;
  }

  /** Forgets everything here and in storage, e.g. after a transfer was sent. */
  forget() {
    this.ownerId = null;
    this.files.clear();
    this.failures.clear();
    this.rejected.clear();
    this.storage?.removeItem(this.storageKey);
  }

  /** Waits for every queued change to the registration. */
  settled(): Promise<void> {
    return this.queue.then(
      () => undefined,
      () => undefined,
    );
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** What a subclass keeps beside the files in storage (a draft's link key); read back by the subclass from `storageKey`. */
  protected rememberedExtras(): Record<string, unknown> {
    return {};
  }

  protected persist() {
    if (!this.storage || this.ownerId === null) return;
    const remembered: RememberedUploads = { ownerId: this.ownerId, files: Object.fromEntries(this.files) };
    try {
      this.storage.setItem(this.storageKey, JSON.stringify({ ...this.rememberedExtras(), ...remembered }));
    } catch {
      // Storage full or disabled: resuming after a reload is a convenience.
    }
  }
}
