import { z } from 'zod';

/**
 * The public recipient API under `/api/public`: what the download page of a shared transfer link
 * reads, without any workspace credential. The slug in the path is the capability.
 *
 * - `GET /api/public/transfers/{slug}`: the transfer as a recipient sees it (PublicTransfer). The page
 *   names its visit in the `x-download-session` header (VISIT_HEADER) once it has one.
 * - `POST /api/public/transfers/{slug}/unlock` `{ password }`: an unlock token for a
 *   password-protected transfer (UnlockResponse), sent back in the `x-transfer-unlock` header.
 * - `POST /api/public/transfers/{slug}/sessions` `{ recipientToken? }`: starts one page visit and
 *   returns signed download URLs scoped to it (DownloadSession). `recipientToken` is the `r`
 *   parameter of a recipient's personal link; an unknown one is ignored.
 *
 * Errors use the shared Error shape:
 * - 404 `not_found`: no such link, or not sent yet.
 * - 410 `link_unavailable` with `details.reason` (LinkUnavailableReason).
 * - 401 `password_required`: the transfer has a password and no valid unlock token was sent. No
 *   transfer details are given.
 * - 401 `wrong_password` (unlock only).
 * - 429 `rate_limited` with `Retry-After`: 60 requests a minute per address on the whole public
 *   API, and 10 failed unlock attempts per link and address per 15 minutes.
 *
 * The signed download URLs (`/dl/<token>`) answer with the file's bytes: `Range`/`If-Range`
 * resumable, `Content-Disposition: attachment`. They refuse with 404 `not_found` (invalid link) or
 * 410 `link_unavailable` (expired link, or the transfer is no longer available).
 */

/** The header that carries an unlock token. */
export const UNLOCK_HEADER = 'x-transfer-unlock';

/**
 * The header by which the page names its own visit (`sessionId`) when it reads the transfer again. A visit
 * that has counted toward the download limit may go on downloading after the limit is reached, so its page
 * may go on reading the transfer (it polls while files are checked for viruses); any other request is refused.
 */
export const VISIT_HEADER = 'x-download-session';

/**
 * `suspended`: the operator of the server disabled the sender's workspace (for as long as it stays
 * disabled). `deleted`: the owner deleted the collection the link was for.
 */
export const linkUnavailableReasons = ['expired', 'revoked', 'limit_reached', 'infected', 'suspended', 'deleted'] as const;
export const LinkUnavailableReasonSchema = z.enum(linkUnavailableReasons);
export type LinkUnavailableReason = z.infer<typeof LinkUnavailableReasonSchema>;

const Crc32Hex = z.string().regex(/^[0-9a-f]{8}$/);

export const PublicTransferFileSchema = z.object({
  /** Used only to pair a file with its URL in a DownloadSession. */
  id: z.string(),
  name: z.string(),
  /** Relative folder path inside an uploaded folder, '/'-separated; null at top level. */
  path: z.string().nullable(),
  sizeBytes: z.number().int().min(0),
  mimeType: z.string(),
  /** CRC-32 (IEEE) of the bytes as 8 lower-case hex digits, for verifying a download. */
  crc32: Crc32Hex,
  /** End-to-end encrypted transfers only: the file's sealed name and metadata. Null otherwise. */
  sealedMeta: z.string().nullable(),
  /** End-to-end encrypted transfers only: the file's sealed thumbnail, when the sender made one. Null otherwise. */
  sealedThumb: z.string().nullable(),
  /** A preview of an image (WebP, at most 480 px) at a signed URL valid an hour; null when there is none (yet). */
  thumbnailUrl: z.url().nullable(),
  /** The file is still being checked for viruses: its download answers 503 with Retry-After until the scan is done. */
  scanPending: z.boolean(),
});

export const PublicTransferSchema = z.object({
  title: z.string().nullable(),
  message: z.string().nullable(),
  workspaceName: z.string(),
  expiresAt: z.iso.datetime(),
  hasPassword: z.boolean(),
  e2ee: z.boolean(),
  /**
   * End-to-end encrypted transfers only: the transfer's id, which its sealed values are bound to (they open only for
   * this transfer). Null otherwise: a plain transfer's page needs no id.
   */
  transferId: z.string().nullable(),
  /** End-to-end encrypted transfers only: the transfer's sealed metadata. Null otherwise. */
  e2eeMeta: z.string().nullable(),
  /** The files that finished uploading, oldest first. */
  files: z.array(PublicTransferFileSchema),
  totalBytes: z.number().int().min(0),
  /** Every file as one zip, its exact length known in advance. Null for an end-to-end encrypted transfer. */
  zip: z.object({ name: z.string(), sizeBytes: z.number().int().min(0) }).nullable(),
});

export const UnlockRequestSchema = z.object({
  password: z.string({ error: 'password is required' }).min(1, { error: 'password is required' }).max(200),
});

export const UnlockResponseSchema = z.object({
  /** Send as the `x-transfer-unlock` header on the other public endpoints of this link. */
  unlockToken: z.string(),
  expiresAt: z.iso.datetime(),
});

export const CreateSessionRequestSchema = z.object({
  /** The `r` parameter of a recipient's personal link, which attributes the downloads to them. */
  recipientToken: z.string().max(200).optional(),
});

export const DownloadSessionSchema = z.object({
  /** One page visit: its downloads share this id and count once toward the download limit. */
  sessionId: z.string(),
  files: z.array(z.object({ id: z.string(), url: z.url() })),
  /** Null for an end-to-end encrypted transfer. */
  zip: z.object({ url: z.url() }).nullable(),
  /** The URLs stop working after this. */
  expiresAt: z.iso.datetime(),
});

export type PublicTransfer = z.infer<typeof PublicTransferSchema>;
export type PublicTransferFile = z.infer<typeof PublicTransferFileSchema>;
export type UnlockRequest = z.infer<typeof UnlockRequestSchema>;
export type UnlockResponse = z.infer<typeof UnlockResponseSchema>;
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;
export type DownloadSession = z.infer<typeof DownloadSessionSchema>;
