import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { UnlockResponse } from '../../../../contract/public';
import { COLLECTION_FILES_PAGE_SIZE } from '../../../../contract/public-page';
import type { Comment } from '../../../../contract/collections';
import type { GuestSession, PublicCollection, PublicCollectionFilePage } from '../../../../contract/public-collections';
import type { DownloadLinksSchema, UploadTarget } from '../../../../contract/transfers';
import { takePublicPageData } from '../../../lib/public-page-data';
import { publicRequest, SCAN_POLL_MS, type PublicRequestInit } from './public-api';

/**
 * A collection's public API (`/api/public/collections/<slug>`), as its page calls it. Unlike a
 * transfer's, these requests carry cookies: a guest's session is an HttpOnly cookie the server
 * scoped to this one collection's API path, and it is the only cookie those endpoints read. No
 * workspace credential is ever asked for or sent by this page (no token fetch, no /api/v1).
 *
 * Only types come from the contract, so the page's chunk does not carry zod.
 */

/** COLLECTION_UNLOCK_HEADER of the contract. */
const UNLOCK_HEADER = 'x-collection-unlock';
/** ROOT_FOLDER of the contract: the files at the top level only. */
const ROOT = 'root';
/** Signed URLs (previews, downloads) last an hour; the collection is read again before its previews stop working. */
const PREVIEWS_FRESH_MS = 50 * 60_000;
/** Download links are used while they have at least this long left. */
const LINK_MARGIN_MS = 5 * 60_000;

export type CollectionDownloadLinks = z.infer<typeof DownloadLinksSchema>;

const collectionPath = (slug: string) => `/collections/${encodeURIComponent(slug)}`;

function collectionRequest<T>(slug: string, path: string, unlockToken: string | null, init: PublicRequestInit = {}): Promise<T> {
  return publicRequest<T>(`${collectionPath(slug)}${path}`, {
    ...init,
    headers: unlockToken ? { [UNLOCK_HEADER]: unlockToken } : {},
    credentials: 'same-origin',
  });
}

/**
 * Every request of one collection's page sits under `['public', 'collection', slug]`, so the page
 * can watch them all (useCollectionRefusal) and reset them together. The unlock token is part of
 * each key: unlocking loads everything afresh.
 */
export const collectionKeys = {
  all: (slug: string) => ['public', 'collection', slug] as const,
  detail: (slug: string, unlockToken: string | null) => [...collectionKeys.all(slug), unlockToken, 'detail'] as const,
  files: (slug: string, unlockToken: string | null, folderId: string | undefined) =>
    [...collectionKeys.all(slug), unlockToken, 'files', folderId ?? ROOT] as const,
  downloadLinks: (slug: string, unlockToken: string | null, folderId: string | undefined) =>
    [...collectionKeys.all(slug), unlockToken, 'download-links', folderId ?? 'all'] as const,
  mutation: (slug: string, name: 'unlock' | 'guest-sign-in' | 'guest-session' | 'guest-sign-out') => [...collectionKeys.all(slug), 'mutation', name] as const,
};

/** Where a query key says what it asks for: `detail`, `files`, `download-links`, or `mutation`. */
export const KEY_KIND_INDEX = 4;

/** A contributor guest's files to upload into `folderId` (their folder when null and they have one): tus targets. */
export function addGuestFiles(slug: string, files: { name: string; size: number; mimeType?: string; path: string | null }[], folderId: string | null): Promise<{ files: UploadTarget[] }> {
  return collectionRequest<{ files: UploadTarget[] }>(slug, '/files', null, { method: 'POST', json: { files, folderId } });
}

/** A guest's review of a file: its comments, theirs to add, and the decision. */
export function getFileComments(slug: string, fileId: string): Promise<{ comments: Comment[] }> {
  return collectionRequest<{ comments: Comment[] }>(slug, `/files/${encodeURIComponent(fileId)}/comments`, null);
}
export function postFileComment(slug: string, fileId: string, body: string): Promise<{ comment: Comment }> {
  return collectionRequest<{ comment: Comment }>(slug, `/files/${encodeURIComponent(fileId)}/comments`, null, { method: 'POST', json: { body } });
}
export function setFileReview(slug: string, fileId: string, state: 'approved' | 'changes_requested' | null): Promise<unknown> {
  return collectionRequest<unknown>(slug, `/files/${encodeURIComponent(fileId)}/review`, null, { method: 'PUT', json: { state } });
}

export function getPublicCollection(slug: string, unlockToken: string | null): Promise<PublicCollection> {
  return collectionRequest<PublicCollection>(slug, '', unlockToken);
}

export function getCollectionFiles(
  slug: string,
  unlockToken: string | null,
  folderId: string | undefined,
  cursor: string | null,
): Promise<PublicCollectionFilePage> {
  const search = new URLSearchParams({ folderId: folderId ?? ROOT, limit: String(COLLECTION_FILES_PAGE_SIZE) });
  if (cursor) search.set('cursor', cursor);
  return collectionRequest<PublicCollectionFilePage>(slug, `/files?${search}`, unlockToken);
}

/** Signed links for every file and the zip of all (`folderId` undefined), or of one folder and everything under it. */
export function getCollectionDownloadLinks(slug: string, unlockToken: string | null, folderId: string | undefined): Promise<CollectionDownloadLinks> {
  return collectionRequest<CollectionDownloadLinks>(slug, folderId ? `/download-links?${new URLSearchParams({ folderId })}` : '/download-links', unlockToken);
}

export function unlockCollection(slug: string, password: string): Promise<UnlockResponse> {
  return collectionRequest<UnlockResponse>(slug, '/unlock', null, { method: 'POST', json: { password } });
}

/** Always answered the same (202), guest or not: the page says "check your inbox" either way. */
export function requestGuestSignIn(slug: string, email: string): Promise<{ sent: true }> {
  return collectionRequest<{ sent: true }>(slug, '/guest-sign-in', null, { method: 'POST', json: { email } });
}

/** Trades the `guest` token of a mailed sign-in link for the guest cookie. */
export function startGuestSession(slug: string, token: string): Promise<GuestSession> {
  return collectionRequest<GuestSession>(slug, '/guest-session', null, { method: 'POST', json: { token } });
}

export function endGuestSession(slug: string): Promise<void> {
  return collectionRequest<void>(slug, '/guest-session', null, { method: 'DELETE' });
}

/**
 * The collection as this visitor sees it. Never retried (a refusal answers the same again, and the
 * public API is rate limited per address); read again only once its preview URLs near their end.
 */
export function publicCollectionQueryOptions(slug: string, unlockToken: string | null) {
  return queryOptions({
    queryKey: collectionKeys.detail(slug, unlockToken),
    queryFn: () => getPublicCollection(slug, unlockToken),
    // The page's HTML carries the collection as the API answers a visitor of its public link. Shown at
    // once but read again straight away (as dated long ago): a signed-in guest of a public collection
    // is told so only by the API, which alone receives the guest's cookie.
    initialData: () => (unlockToken === null ? takePublicPageData('collection', slug, 'detail', (d) => d.collection) : undefined),
    initialDataUpdatedAt: 0,
    staleTime: PREVIEWS_FRESH_MS,
    retry: false,
    refetchOnReconnect: false,
  });
}

/** The files directly in a folder (`undefined`: the top level), a page at a time, oldest first. */
export function collectionFilesQueryOptions(slug: string, unlockToken: string | null, folderId: string | undefined) {
  return infiniteQueryOptions({
    queryKey: collectionKeys.files(slug, unlockToken, folderId),
    queryFn: ({ pageParam }) => getCollectionFiles(slug, unlockToken, folderId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    // The first page of the folder the address named, as the page's HTML carries it.
    initialData: () =>
      unlockToken === null
        ? takePublicPageData('collection', slug, `files ${folderId ?? ROOT}`, (d) =>
            (d.folderId ?? undefined) === folderId ? { pages: [d.files], pageParams: [null as string | null] } : undefined,
          )
        : undefined,
    // Read again every few seconds while a file is being checked for viruses, so its download opens once it is clean.
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.files.some((f) => f.scanPending)) ? SCAN_POLL_MS : false),
    staleTime: PREVIEWS_FRESH_MS,
    retry: false,
    refetchOnReconnect: false,
  });
}

/** Links are reused while they have a few minutes left; a zip is always asked for afresh (see useCollectionDownloads). */
export function collectionDownloadLinksQueryOptions(slug: string, unlockToken: string | null, folderId: string | undefined) {
  return queryOptions({
    queryKey: collectionKeys.downloadLinks(slug, unlockToken, folderId),
    queryFn: () => getCollectionDownloadLinks(slug, unlockToken, folderId),
    staleTime: (query) => (query.state.data ? Math.max(0, Date.parse(query.state.data.expiresAt) - Date.now() - LINK_MARGIN_MS) : 0),
    retry: false,
  });
}
