import type { UploaderDetails } from '../api/public-request-api';

/** Where the page's UploadSession keeps the submission's unfinished uploads (its id is the session's owner). */
export const submissionUploadsStorageKey = (slug: string) => `parcel.request.uploads.${slug}`;
/** Beside it: the submission's token and what it holds, which the session does not keep. */
export const submissionStorageKey = (slug: string) => `parcel.request.submission.${slug}`;

/** A submission not sent is sent by the server as it is after this long (ABANDONED_UPLOAD_MS): nothing is left to resume. */
const KEPT_MS = 7 * 24 * 3600_000;

export interface SubmittedFile {
  size: number;
  /** Its last byte arrived: it is the workspace's now and cannot be taken back. */
  delivered: boolean;
}

/** A started submission, as this browser remembers it. */
export interface StoredSubmission {
  id: string;
  token: string;
  /** What the uploader typed when it started (the server has it; shown again when the page reopens). */
  details: UploaderDetails;
  startedAt: string;
  /** Every file registered into it and not cancelled, by the server's id. */
  files: Record<string, SubmittedFile>;
}

export interface DeliveredTally {
  count: number;
  bytes: number;
}

function isStored(value: unknown): value is StoredSubmission {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<StoredSubmission>;
  return (
    typeof v.id === 'string' &&
    typeof v.token === 'string' &&
    typeof v.startedAt === 'string' &&
    typeof v.files === 'object' &&
    v.files !== null &&
    typeof v.details?.name === 'string' &&
    typeof v.details.email === 'string' &&
    typeof v.details.message === 'string'
  );
}

/**
 * The one submission an uploader has going on a request's page: started with the first batch of
 * files, forgotten once sent. Kept in localStorage under the request's slug, so closing the tab and
 * opening the link again carries on with the same submission (and its token). The page subscribes
 * to it to know what has been delivered.
 */
export class SubmissionStore {
  private record: StoredSubmission | null;
  private readonly listeners = new Set<() => void>();
  private readonly key: string;
  private readonly storage: Storage | undefined;

  constructor(slug: string, options: { storage?: Storage; now?: () => number } = {}) {
    this.key = submissionStorageKey(slug);
    this.storage = options.storage ?? (typeof window === 'undefined' ? undefined : window.localStorage);
    this.record = this.read((options.now ?? Date.now)());
  }

  get current(): StoredSubmission | null {
    return this.record;
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.record;

  start(id: string, token: string, details: UploaderDetails, now: Date = new Date()) {
    this.write({ id, token, details, startedAt: now.toISOString(), files: {} });
  }

  addFiles(files: { fileId: string; size: number }[]) {
    if (!this.record) return;
    const added = Object.fromEntries(files.map((f) => [f.fileId, { size: f.size, delivered: false }]));
    this.write({ ...this.record, files: { ...this.record.files, ...added } });
  }

  removeFile(fileId: string) {
    if (!this.record?.files[fileId]) return;
    const { [fileId]: _, ...rest } = this.record.files;
    this.write({ ...this.record, files: rest });
  }

  markDelivered(fileId: string) {
    const file = this.record?.files[fileId];
    if (!this.record || !file || file.delivered) return;
    this.write({ ...this.record, files: { ...this.record.files, [fileId]: { ...file, delivered: true } } });
  }

  /** The submission is gone (sent, or dropped by the server): the next file starts a new one. */
  clear() {
    this.record = null;
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // Storage disabled: nothing was kept either.
    }
    this.emit();
  }

  private read(now: number): StoredSubmission | null {
    try {
      const raw = this.storage?.getItem(this.key);
      const parsed: unknown = raw ? JSON.parse(raw) : null;
      if (!isStored(parsed)) return null;
      if (now - Date.parse(parsed.startedAt) > KEPT_MS) {
        this.storage?.removeItem(this.key);
        return null;
      }
      return parsed;
    } catch {
      return null;
    }
  }

  private write(record: StoredSubmission) {
    this.record = record;
    try {
      this.storage?.setItem(this.key, JSON.stringify(record));
    } catch {
      // Storage full or disabled: carrying on after a reload is a convenience.
    }
    this.emit();
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

/** The files of a submission that have arrived. */
export function deliveredOf(submission: StoredSubmission | null): DeliveredTally {
  const delivered = Object.values(submission?.files ?? {}).filter((f) => f.delivered);
  return { count: delivered.length, bytes: delivered.reduce((sum, f) => sum + f.size, 0) };
}
