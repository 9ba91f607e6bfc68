import type { FileOwnerKind, FileRecord } from '../db/schema/index.js';
import type { Database } from '../db/connection.js';
import type { Services } from '../services.js';

/**
 * What the file engine (uploads, CRC, storage, signed links, Range serving, the zip) asks of the
 * thing that owns a file: a transfer, a collection (with the files its upload requests bring) or a
 * vault. Each kind registers one FileOwner (assembly/owners.ts, `owners` in services); the engine
 * and the URL importer never import an owner.
 */
export interface FileOwner {
  readonly kind: FileOwnerKind;
  /** The owner as the engine needs it, or null when there is no such owner any more. */
  status(db: Pick<Database, 'select'>, ownerId: string): Promise<OwnerStatus | null>;
  /**
   * One of the owner's files has all its bytes and its CRC-32. Called again for a file already
   * complete (after a crash between the two steps, or a HEAD that finished it), so it must be
   * idempotent. A transfer checks whether it is ready and emits `transfer.ready`.
   */
  fileCompleted(services: Services, file: FileRecord): Promise<void>;
  /**
   * The virus scan found malware in one of the owner's files (already marked `infected`, once): the
   * owner keeps it from everyone, deletes its bytes and tells its workspace. A sent transfer is
   * blocked whole; a draft keeps the marked file for its sender to remove; a collection quarantines the file.
   */
  fileInfected(services: Services, file: FileRecord, signature: string): Promise<void>;
  /** The most bytes a URL import into this owner may bring, its other files counted: the importer stops an origin that sends more. */
  importCeiling(services: Services, file: FileRecord): Promise<number>;
  /**
   * A URL import of the owner failed for good (the file is already marked `failed`, once): the
   * owner tells whom it must and goes on without the file.
   */
  importFailed(services: Services, file: FileRecord): Promise<void>;
  /**
   * Refuses (410 `link_unavailable`, or 404) unless a link holder may see this owner's file `fileId` now;
   * `byManager` for a preview signed for the workspace's own page (the dashboard), which the owner's rules
   * for visitors (a download limit) do not hold back.
   */
  assertViewable(services: Services, ownerId: string, fileId: string, byManager: boolean): Promise<void>;
  /** What a signed download link serves and what its request records; see downloads/serve.ts. */
  openDownload(services: Services, grant: DownloadGrant): Promise<OpenedDownload>;
}

export interface OwnerStatus {
  /** Bytes may still arrive and previews still be made: the owner has neither ended nor been purged. */
  live: boolean;
  /** When an unfinished upload of the owner is given up (tus `Upload-Expires`). */
  keptUntil: Date;
  /** Its files are end-to-end encrypted: the server cannot read them (no previews). */
  encrypted: boolean;
}

/** A signed download link's grant: whose file (or `zip` of which files), for which visit, until when. */
export interface DownloadGrant {
  ownerKind: FileOwnerKind;
  ownerId: string;
  /** A file id, or `zip` for the owner's whole set (or the selection the owner keeps for it). */
  fileId: string;
  /** The page visit the download belongs to (receipts, counting); null for the owner's own links. */
  sessionId: string | null;
  /** The folder a zip is limited to (it and what is under it); null for the owner's whole set. */
  within: string | null;
  expiresAt: Date;
}

/** A stored file with the path it has inside its owner (a folder, or null at the top). */
export interface PlacedFile {
  file: FileRecord;
  path: string | null;
}

export interface OpenedDownload {
  /** One file, or the files of a zip with its name and the instant its layout dates from. */
  target: { kind: 'file'; file: FileRecord } | { kind: 'zip'; name: string; files: PlacedFile[]; since: Date };
  /** The bytes were encrypted in the sender's browser: the server cannot scan them, so they do not wait for a scan. */
  encrypted: boolean;
  /**
   * The first byte is about to go out (not for HEAD): the owner records what it needs (a receipt,
   * a count) and may refuse. Returns what to call once the last byte has been handed to the socket.
   */
  begin(): Promise<(() => Promise<void>) | null>;
}

/** The registered owners by kind. */
export class FileOwners {
  private readonly byKind = new Map<FileOwnerKind, FileOwner>();

  constructor(owners: FileOwner[]) {
    for (const owner of owners) this.byKind.set(owner.kind, owner);
  }

  of(kind: FileOwnerKind): FileOwner {
    const owner = this.byKind.get(kind);
    if (!owner) throw new Error(`no file owner registered for kind ${kind}`);
    return owner;
  }
}
