import type { UploadTarget } from '../../../contract/transfers';
import { isApiRequestError } from '../../lib/api-error';
import {
  addFilesToDraft,
  createTransferDraft,
  isExpiredTokenError,
  removeFileFromDraft,
  renewUploadToken,
  type FileToRegister,
} from './api/transfer-drafts';

/** A file the uploader holds; `key` is Uppy's file id, which is stable across visits for the same file. */
export interface DraftFileInput extends FileToRegister {
  key: string;
}

export interface RememberedFile {
  fileId: string;
  name: string;
  size: number;
  path: string | null;
  uploadToken: string;
  uploadTokenExpiresAt: string;
}

/** What survives closing the tab: enough to find the draft again and keep uploading to it. */
export interface RememberedDraft {
  transferId: string;
  files: Record<string, RememberedFile>;
}

export interface DraftApi {
  create: typeof createTransferDraft;
  add: typeof addFilesToDraft;
  remove: typeof removeFileFromDraft;
  renew: typeof renewUploadToken;
}

export interface DraftSessionOptions {
  workspaceId: string;
  storage?: Storage;
  now?: () => number;
  /** A token with less than this left is renewed before it is used. */
  renewMarginMs?: number;
  api?: Partial<DraftApi>;
}

/** The file cannot continue: its upload token expired before it could be renewed. */
export class UploadTokenExpiredError extends Error {
  override readonly name = 'UploadTokenExpiredError';
}

export const draftStorageKey = (workspaceId: string) => `parcel.send.draft.${workspaceId}`;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}

/**
 * The draft transfer behind the uploader. Files are registered in batches as they are added (the
 * first batch creates the draft), removed files leave the draft, and each file's upload token is
 * kept fresh. Calls that change the draft run one after another, so a batch added while the draft
 * is being created lands in that draft. The draft id and tokens are remembered per workspace.
 */
export class DraftSession {
  transferId: string | null = null;
  private readonly files = new Map<string, RememberedFile>();
  private readonly registrations = new Map<string, Promise<void>>();
  private readonly renewals = new Map<string, Promise<string>>();
  private readonly rejected = new Set<string>();
  private readonly failures = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly api: DraftApi;
  private readonly storage: Storage | undefined;
  private readonly now: () => number;
  private readonly renewMarginMs: number;
  private readonly storageKey: string;

  constructor(options: DraftSessionOptions) {
    this.api = {
      create: createTransferDraft,
      add: addFilesToDraft,
      remove: removeFileFromDraft,
      renew: renewUploadToken,
      ...options.api,
    };
    this.storage = options.storage ?? (typeof window === 'undefined' ? undefined : window.localStorage);
    this.now = options.now ?? Date.now;
    this.renewMarginMs = options.renewMarginMs ?? 10 * 60_000;
    this.storageKey = draftStorageKey(options.workspaceId);
  }

  /** The draft left by an earlier visit, if any; loading it makes re-added files continue where they stopped. */
  remembered(): RememberedDraft | null {
    try {
      const raw = this.storage?.getItem(this.storageKey);
      if (!raw) return null;
      const parsed = JSON.parse(raw) as RememberedDraft;
      return typeof parsed.transferId === 'string' && parsed.files && typeof parsed.files === 'object' ? parsed : null;
    } catch {
      return null;
    }
  }

  resume(draft: RememberedDraft) {
    this.transferId = draft.transferId;
    for (const [key, file] of Object.entries(draft.files)) this.files.set(key, file);
  }

  /** Files of the draft that the uploader does not hold (yet). */
  filesNotIn(keys: Iterable<string>): (RememberedFile & { key: string })[] {
    const held = new Set(keys);
    return [...this.files].filter(([key]) => !held.has(key)).map(([key, file]) => ({ key, ...file }));
  }

  has(key: string): boolean {
    return this.files.has(key);
  }

  get fileCount(): number {
    return this.files.size;
  }

  /** Registers a batch with one request: creates the draft for the first batch, adds to it after. */
  registerFiles(inputs: DraftFileInput[]): Promise<void> {
    const batch = inputs.filter((f) => !this.files.has(f.key) && !this.registrations.has(f.key));
    if (batch.length === 0) return Promise.resolve();
    const run = this.enqueue(async () => {
      const files = batch.map(({ name, size, mimeType, path }) => ({ name, size, ...(mimeType ? { mimeType } : {}), path: path ?? null }));
      let targets: UploadTarget[];
      if (this.transferId === null) {
        const draft = await this.api.create(files);
        this.transferId = draft.id;
        targets = draft.files;
      } else {
        targets = (await this.api.add(this.transferId, files)).files;
      }
      batch.forEach((input, index) => {
        const target = targets[index];
        if (!target) return;
        this.files.set(input.key, {
          fileId: target.id,
          name: input.name,
          size: input.size,
          path: input.path ?? null,
          uploadToken: target.uploadToken,
          uploadTokenExpiresAt: target.uploadTokenExpiresAt,
        });
      });
      this.persist();
    });
    for (const input of batch) {
      const registration = run.then(
        () => {
          if (!this.files.has(input.key)) throw new Error('The server did not register this file.');
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

  /** Removes a file from the draft (if it got that far). */
  removeFile(key: string): Promise<void> {
    return this.enqueue(async () => {
      await this.registrations.get(key)?.catch(() => undefined);
      const file = this.files.get(key);
      this.failures.delete(key);
      if (!file || this.transferId === null) return;
      try {
        await this.api.remove(this.transferId, file.fileId);
      } catch (error) {
        // Already gone is what we wanted.
        if (!(isApiRequestError(error) && error.status === 404)) throw error;
      }
      this.files.delete(key);
      this.persist();
    });
  }

  /** The token to send with the next tus request of this file: renewed first when it is about to expire or was refused. */
  async tokenFor(key: string): Promise<string> {
    await this.registrations.get(key);
    const file = this.files.get(key);
    if (!file) throw new Error(this.failures.get(key) ?? 'This file is not part of the transfer.');
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
    if (!file) return Promise.reject(new Error('This file is not part of the transfer.'));
    const renewal = this.api
      .renew(file.uploadToken)
      .then(({ uploadToken, expiresAt }) => {
        const current = this.files.get(key);
        if (current) this.files.set(key, { ...current, uploadToken, uploadTokenExpiresAt: expiresAt });
        this.rejected.delete(key);
        this.persist();
        return uploadToken;
      })
      .catch((error: unknown) => {
        if (isExpiredTokenError(error)) {
          const message = 'The upload permission for this file expired. Remove the file and add it again.';
          this.failures.set(key, message);
          throw new UploadTokenExpiredError(message);
        }
        throw error;
      })
      .finally(() => this.renewals.delete(key));
    this.renewals.set(key, renewal);
    return renewal;
  }

  /** Forgets the draft here and in storage, e.g. after it was sent. */
  forget() {
    this.transferId = null;
    this.files.clear();
    this.failures.clear();
    this.rejected.clear();
    this.storage?.removeItem(this.storageKey);
  }

  /** Waits for every queued change to the draft. */
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

  private persist() {
    if (!this.storage) return;
    if (this.transferId === null) return;
    const draft: RememberedDraft = { transferId: this.transferId, files: Object.fromEntries(this.files) };
    try {
      this.storage.setItem(this.storageKey, JSON.stringify(draft));
    } catch {
      // Storage full or disabled: resuming after a reload is a convenience.
    }
  }
}
