import { and, eq, gt, isNotNull } from 'drizzle-orm';
import type { DownloadSession, PublicTransfer, UnlockResponse } from '../../contract/public.js';
import { ApiError, notFound } from '../core/errors.js';
import { newId, sha256 } from '../core/secrets.js';
import { downloadSessions, transferRecipients, transfers, workspaces } from '../db/schema/index.js';
import { linksFor } from '../downloads/links.js';
import type { Services } from '../services.js';
import { awaitingScan } from '../files/stored.js';
import { thumbnailUrls } from '../thumbnails/thumbnails.js';
import { linkUnavailable } from '../sharing/availability.js';
import { assertAvailable, unavailableReason, type TransferRow } from './availability.js';
import type { DownloadLinks } from '../downloads/links.js';
import { transferDownloadLinks, transferZipSummary } from './download-links.js';
import { downloadableFiles } from './files.js';
import { unlockTokenValid, unlockWithPassword } from '../sharing/unlock.js';
import { isActiveWorkspace } from '../workspaces/active.js';
import { said } from '../core/sentences.js';

/**
 * A transfer's shared link as its recipients use it: open it by slug, prove the password, read
 * what it offers, start a visit with signed download links. Plain functions of the services and
 * the parsed input; the public routes (public/transfers.ts) only parse, call and serialise. The
 * slug is the capability, compared only by exact equality.
 */

/** A download page visit lasts this long (never past the transfer's expiry); its links with it. */
export const VISIT_TTL_MS = 12 * 60 * 60 * 1000;

const SLUG = /^[A-Za-z0-9_-]{1,100}$/;

/** How long a visitor is asked to wait before asking again about a transfer whose files are still arriving. */
export const FILES_ARRIVING_RETRY_AFTER_SECONDS = 15;

/**
 * The sent transfer behind a slug, if its link works now: 404 for an unknown slug or a draft,
 * 410 `link_unavailable` with the reason for one that ended or reached its download limit, and
 * 409 `files_arriving` for one finalized while URL imports still run (it goes out when the last
 * lands): never a link with nothing behind it. `visitId`: the page's own visit, which (once counted,
 * and until its links expire) may read the transfer past the limit, as its downloads may go on
 * (receipts.ts); one visit is one download on every path.
 */
export async function openSharedTransfer(services: Services, slug: string, visitId?: string): Promise<{ t: TransferRow; workspaceName: string }> {
  if (!SLUG.test(slug)) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
  const [row] = await services.db
    .select({ t: transfers, workspaceName: workspaces.name, disabledAt: workspaces.disabledAt })
    .from(transfers)
    .innerJoin(workspaces, eq(workspaces.id, transfers.workspaceId))
    .where(eq(transfers.slug, slug));
  if (!row || row.t.finalizedAt === null) throw notFound(said({ id: 'api.transfers.transferNotFound', defaultMessage: 'Transfer not found' }));
  if (!isActiveWorkspace(row)) throw linkUnavailable('suspended');
  const now = services.clock.now();
  const limitReached = unavailableReason(row.t, now, { countLimit: true }) === 'limit_reached';
  const countLimit = !(limitReached && visitId !== undefined && (await isCountedVisit(services, row.t.id, visitId, now)));
  assertAvailable(row.t, now, { countLimit });
  if (row.t.readyAt === null) {
    throw new ApiError(
      'files_arriving',
      said({ id: 'api.transfers.senderSentTransferBut', defaultMessage: 'The sender has sent this transfer, but its files are still arriving. Try again in a moment.' }),
      { retryAfterSeconds: FILES_ARRIVING_RETRY_AFTER_SECONDS },
      { 'Retry-After': String(FILES_ARRIVING_RETRY_AFTER_SECONDS) },
    );
  }
  return { t: row.t, workspaceName: row.workspaceName };
}

/** A visit of this transfer that has counted as its download and whose links still work. */
async function isCountedVisit(services: Services, transferId: string, visitId: string, now: Date): Promise<boolean> {
  if (visitId.length > 100) return false;
  const [visit] = await services.db
    .select({ id: downloadSessions.id })
    .from(downloadSessions)
    .where(and(eq(downloadSessions.id, visitId), eq(downloadSessions.transferId, transferId), isNotNull(downloadSessions.countedAt), gt(downloadSessions.expiresAt, now)));
  return visit !== undefined;
}

const passwordRequired = () => new ApiError('password_required', said({ id: 'api.transfers.transferProtectedPassword', defaultMessage: 'This transfer is protected by a password.' }));

/** Refuses (401 password_required) a password-protected transfer without a valid unlock token. */
export function assertUnlocked(services: Services, t: TransferRow, unlockToken: string | undefined): void {
  if (t.passwordHash === null) return;
  if (!unlockTokenValid(services, unlockToken, { id: t.id, passwordHash: t.passwordHash }, services.clock.now())) {
    throw passwordRequired();
  }
}

/** What the recipient page shows: the message, the files with their previews, the zip's size. */
export async function describeSharedTransfer(services: Services, t: TransferRow, workspaceName: string): Promise<PublicTransfer> {
  const files = await downloadableFiles(services.db, t.id);
  const previews = thumbnailUrls(services, { kind: 'transfer', id: t.id, expiresAt: t.expiresAt }, files);
  return {
    title: t.title,
    message: t.message,
    workspaceName,
    expiresAt: t.expiresAt.toISOString(),
    hasPassword: t.passwordHash !== null,
    e2ee: t.e2ee,
    transferId: t.e2ee ? t.id : null,
    e2eeMeta: t.e2ee ? t.e2eeMeta : null,
    files: files.map((f) => ({
      id: f.id,
      name: f.name,
      path: f.path,
      sizeBytes: f.sizeBytes,
      mimeType: f.mimeType,
      crc32: f.crc32!,
      sealedMeta: t.e2ee ? f.sealedMeta : null,
      sealedThumb: t.e2ee ? f.sealedThumb || null : null,
      thumbnailUrl: previews.get(f.id) ?? null,
      // An end-to-end encrypted file is ciphertext to the server: it is not scanned, and does not wait for it.
      scanPending: !t.e2ee && awaitingScan(services.config, f),
    })),
    totalBytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
    zip: t.e2ee ? null : transferZipSummary(services, t, files),
  };
}

/**
 * An unlock token for the transfer: at once without a password, else for the right password,
 * with failed attempts limited per transfer and address.
 */
export async function unlockSharedTransfer(services: Services, t: TransferRow, password: string, address: string): Promise<UnlockResponse> {
  return unlockWithPassword(services, { id: t.id, passwordHash: t.passwordHash }, password, address, 'transfer');
}

/** Records a visit (attributed to the recipient when a valid personal-link token comes with it), with the files it may download. */
async function recordVisit(services: Services, t: TransferRow, recipientToken: string | undefined) {
  const now = services.clock.now();

  let recipientId: string | null = null;
  if (recipientToken) {
    // Matched by hash within this transfer only; an unknown token is ignored, not an error.
    const [r] = await services.db
      .select({ id: transferRecipients.id })
      .from(transferRecipients)
      .where(and(eq(transferRecipients.linkTokenHash, sha256(recipientToken)), eq(transferRecipients.transferId, t.id)));
    recipientId = r?.id ?? null;
  }

  const expiresAt = new Date(Math.min(now.getTime() + VISIT_TTL_MS, t.expiresAt.getTime()));
  const sessionId = newId('dls');
  await services.db.insert(downloadSessions).values({
    id: sessionId,
    workspaceId: t.workspaceId,
    transferId: t.id,
    recipientId,
    createdAt: now,
    expiresAt,
  });
  return { sessionId, expiresAt, files: await downloadableFiles(services.db, t.id) };
}

/** A page visit: its id and signed links for every file and the zip. */
export async function startVisit(services: Services, t: TransferRow, recipientToken: string | undefined): Promise<DownloadSession> {
  const { sessionId, expiresAt, files } = await recordVisit(services, t, recipientToken);
  const urls = linksFor(services, { kind: 'transfer', id: t.id }, files, sessionId, expiresAt);
  return {
    sessionId,
    files: files.map((f) => ({ id: f.id, url: urls.files.get(f.id)! })),
    zip: t.e2ee ? null : { url: urls.zip },
    expiresAt: expiresAt.toISOString(),
  };
}

/** The same visit made through the API (`POST /links/resolve`), answered in the DownloadLinks shape. Not for an e2ee transfer. */
export async function startVisitLinks(services: Services, t: TransferRow, recipientToken: string | undefined): Promise<DownloadLinks> {
  const { sessionId, expiresAt, files } = await recordVisit(services, t, recipientToken);
  return transferDownloadLinks(services, t, files, sessionId, expiresAt);
}
