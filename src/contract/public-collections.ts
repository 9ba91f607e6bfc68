import { z } from 'zod';
import { CollectionFileSchema, FolderSchema, collectionVisibilities } from './collections.js';
import { FileToUploadSchema } from './transfers.js';
import { EmailSchema } from './dashboard.js';
import { cursorParam, limitParam } from './pagination.js';
import { UnlockRequestSchema, UnlockResponseSchema } from './public.js';

/**
 * The public side of a collection under `/api/public/collections`: what the collection page of a
 * secret link (`/c/<slug>`, or `/<slug>` on the workspace's own domain) reads, without any
 * workspace credential. The slug in the path is the capability.
 *
 * Who may read depends on the collection's visibility, checked again on every request (a change
 * of visibility or password, or a removed guest, takes effect on the very next one):
 * - `public`: anyone with the link.
 * - `password`: whoever sends a valid unlock token in the `x-collection-unlock` header (from
 *   `POST …/unlock`; an hour; changing the password retires it).
 * - `private`: invited guests only, signed in with the `collection_guest` cookie. A guest proves
 *   their address with a one-time link mailed by `POST …/guest-sign-in` (`?guest=<token>` on the
 *   collection's page, valid 15 minutes, used once), which the page trades for the cookie through
 *   `POST …/guest-session`. The cookie is scoped by path to this one collection's API and lasts 30
 *   days; a guest keeps access whatever the visibility, for as long as they stay invited.
 *
 * Endpoints (`{slug}` is the collection's slug):
 * - `GET {slug}`: the collection as a visitor sees it (PublicCollection).
 * - `GET {slug}/files?folderId=&limit=&cursor=`: its complete files, oldest first
 *   (PublicCollectionFilePage). `folderId` absent: every file; `root`: the top level only; a
 *   folder id: the files directly in that folder. `limit` 1..1000, default 200.
 * - `GET {slug}/download-links?folderId=`: signed download URLs for every file and a zip of all
 *   (the v1 DownloadLinks shape), or of one folder and everything under it (the zip keeps its
 *   tree). The URLs stop working as soon as the access they were made under ends.
 * - `POST {slug}/unlock` `{ password }` → UnlockResponse (send the token as `x-collection-unlock`).
 * - `POST {slug}/guest-sign-in` `{ email }` → `202 { sent: true }`, whether or not the address is
 *   a guest (nothing is learnt from it); at most 5 mails per address and collection in 15 minutes.
 * - `POST {slug}/guest-session` `{ token }` → GuestSession, and sets the guest cookie.
 * - `DELETE {slug}/guest-session` → `204`, and clears the guest cookie.
 * - `POST {slug}/files` GuestUploadRequest → the v1 AddFiles answer (tus endpoint, upload tokens): a contributor
 *   guest's files, into their folder (or anywhere when they have none); `403 forbidden` for any other visitor, and
 *   for a folder outside theirs.
 *
 * Errors use the shared Error shape:
 * - 400 `invalid_request` naming the field (`email`, `token`, `password`, `limit`, `cursor`, `folderId`).
 * - 401 `password_required`: the collection has a password and no valid unlock token was sent.
 * - 403 `guests_only`: the collection is only for invited guests and no valid guest cookie was sent
 *   (a guest of another collection included). No collection details are given with either.
 * - 401 `wrong_password` (unlock only).
 * - 404 `not_found`: no such link, or a folder that is not in this collection.
 * - 410 `link_unavailable` with `details.reason`: `suspended` (the operator disabled the
 *   workspace), or `expired` for a guest sign-in link that expired or was used already.
 * - 429 `rate_limited` with `Retry-After`: 60 requests a minute per address on the whole public
 *   API, and 10 failed unlock attempts per link and address per 15 minutes.
 *
 * A collection whose workspace's paid plan lapsed stays readable here, read-only: its visitors keep
 * browsing and downloading it, while the workspace cannot change it until the plan is renewed.
 *
 * On a workspace's own domain (its page is `/<slug>` there) this API answers only for that
 * workspace's collections with `customLink` on (404 for any other), and its signed preview and
 * download URLs and mailed sign-in links are on that domain rather than PUBLIC_URL.
 */

/** The header that carries an unlock token of a password-protected collection. */
export const COLLECTION_UNLOCK_HEADER = 'x-collection-unlock';

/** How the visitor is reading the collection: through the link alone, an unlock token, or a guest session. */
export const collectionAccessKinds = ['public', 'password', 'guest'] as const;

export const PublicCollectionSchema = z.object({
  title: z.string(),
  description: z.string().nullable(),
  workspaceName: z.string(),
  visibility: z.enum(collectionVisibilities),
  /** The cover image, while it is a complete file of the collection; its preview at a signed URL valid an hour (null until made). */
  cover: z.object({ fileId: z.string(), thumbnailUrl: z.url().nullable() }).nullable(),
  /** Every folder, depth first by path. */
  folders: z.array(FolderSchema),
  /** Complete files only, as are `totalBytes` and the zip. */
  fileCount: z.number().int().min(0),
  totalBytes: z.number().int().min(0),
  /** Every file as one zip, its exact length known in advance. */
  zip: z.object({ name: z.string(), sizeBytes: z.number().int().min(0) }),
  access: z.enum(collectionAccessKinds),
  /** The signed-in guest's address with `access` `guest`; null otherwise. */
  guestEmail: z.string().nullable(),
  /**
   * A contributor guest may upload (`POST {slug}/files`): anywhere (`folderId` null), or into one folder and what
   * is under it. Null for everyone else, and for a contributor whose folder is gone.
   */
  upload: z.object({ folderId: z.string().nullable() }).nullable(),
});

/** What a contributor guest registers to upload: the owner's `files` (names cleaned alike), into a folder. */
export const GuestUploadRequestSchema = z.object({
  files: z.array(FileToUploadSchema).min(1, { error: 'files must have at least 1 item' }).max(500, { error: 'at most 500 files per call' }),
  /** Where the files go (null: the top level); within the guest's folder when they have one, which is where they go when absent. */
  folderId: z.string({ error: 'folderId must be a string or null' }).min(1).max(100).nullable().optional(),
});

/** Visitors see only files that were sent (see `unsent` on CollectionFile), so the marker is not theirs. */
export const PublicCollectionFileSchema = CollectionFileSchema.omit({ unsent: true, addedBy: true }).extend({
  /** Added by a guest who contributes: `you` (the signed-in guest), or `guest` (another one, unnamed); null for the owner's. */
  contributedBy: z.enum(['you', 'guest']).nullable(),
  /** A preview of an image (WebP, at most 480 px) at a signed URL valid an hour; null when there is none (yet). */
  thumbnailUrl: z.url().nullable(),
  /** The file is still being checked for viruses: its download answers 503 with Retry-After until the scan is done. */
  scanPending: z.boolean(),
});

export const PublicCollectionFilePageSchema = z.object({
  files: z.array(PublicCollectionFileSchema),
  /** Pass as `cursor` for the next page (with the same `folderId`); null on the last page. */
  nextCursor: z.string().nullable(),
});

/** `folderId`: absent for every file, `root` for the top level only, or a folder's id for the files directly in it. */
export const ROOT_FOLDER = 'root';

export const PublicCollectionFilesQuerySchema = z.object({
  folderId: z
    .string({ error: 'folderId must be a string' })
    .min(1, { error: 'folderId must not be empty' })
    .max(100, { error: 'folderId is too long' })
    .optional(),
  limit: limitParam(1000, 200),
  cursor: cursorParam,
});

export const PublicCollectionDownloadLinksQuerySchema = z.object({
  folderId: z
    .string({ error: 'folderId must be a string' })
    .min(1, { error: 'folderId must not be empty' })
    .max(100, { error: 'folderId is too long' })
    .optional(),
});

export const GuestSignInRequestSchema = z.object({ email: EmailSchema });

export const GuestSignInSentSchema = z.object({ sent: z.literal(true) });

export const GuestSessionRequestSchema = z.object({
  /** The `guest` parameter of the sign-in link. */
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }).max(200, { error: 'token is too long' }),
});

export const GuestSessionSchema = z.object({
  email: z.string(),
  /** The guest cookie lasts until then, while the address stays invited. */
  expiresAt: z.iso.datetime(),
});

export { UnlockRequestSchema as CollectionUnlockRequestSchema, UnlockResponseSchema as CollectionUnlockResponseSchema };

export type PublicCollection = z.infer<typeof PublicCollectionSchema>;
export type PublicCollectionFile = z.infer<typeof PublicCollectionFileSchema>;
export type PublicCollectionFilePage = z.infer<typeof PublicCollectionFilePageSchema>;
export type GuestSession = z.infer<typeof GuestSessionSchema>;
