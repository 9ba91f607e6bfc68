import { queryOptions } from '@tanstack/react-query';
import type { DownloadSession, PublicTransfer, UnlockResponse } from '../../../../contract/public';
import { ApiRequestError, errorFromResponse, isApiRequestError } from '../../../lib/api-error';
import { firstViewGcTime, takePublicPageData } from '../../../lib/public-page-data';
import { currentIntl, documentLocale } from '../../../lib/intl';

/**
 * The public recipient API (`/api/public/*`). Deliberately not the v1 client nor the dashboard
 * session: no workspace credential may ever leave this page, so a transfer's requests omit cookies
 * and carry only the link's own unlock token. The referrer is dropped as well, so a recipient's
 * personal `?r=` token (or a guest's sign-in token) in the page address never travels in a
 * `Referer` header.
 */

const UNLOCK_HEADER = 'x-transfer-unlock';
/** VISIT_HEADER of src/contract/public.ts: the page's own visit, by which it may read the transfer past the download limit once that visit has counted. */
const VISIT_HEADER = 'x-download-session';

export interface PublicRequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  headers?: Record<string, string>;
  /** `omit` unless the endpoint reads a cookie of its own (a collection's guest session). */
  credentials?: RequestCredentials;
}

export async function publicRequest<T>(path: string, init: PublicRequestInit = {}): Promise<T> {
  // The server writes its refusals in the page's language (the one the reader chose, not only the browser's).
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': documentLocale(), ...init.headers };
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/public${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      credentials: init.credentials ?? 'omit',
      referrerPolicy: 'no-referrer',
      cache: 'no-store',
    });
  } catch {
    throw new ApiRequestError({
      status: 0,
      code: 'network_error',
      message: currentIntl().formatMessage({ id: 'pages.http.networkError', defaultMessage: 'Could not reach the server. Check your connection and try again.' }),
    });
  }
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiRequestError({
      status: response.status,
      code: 'unexpected_response',
      message: currentIntl().formatMessage({ id: 'pages.http.unreadable', defaultMessage: 'The server sent an answer this page cannot read. Try reloading.' }),
    });
  }
}

const unlockHeaders = (unlockToken: string | null | undefined): Record<string, string> => (unlockToken ? { [UNLOCK_HEADER]: unlockToken } : {});

const transferPath = (slug: string) => `/transfers/${encodeURIComponent(slug)}`;

export function getPublicTransfer(slug: string, unlockToken: string | null, visitId?: string): Promise<PublicTransfer> {
  return publicRequest<PublicTransfer>(transferPath(slug), { headers: { ...unlockHeaders(unlockToken), ...(visitId ? { [VISIT_HEADER]: visitId } : {}) } });
}

export function unlockTransfer(slug: string, password: string): Promise<UnlockResponse> {
  return publicRequest<UnlockResponse>(`${transferPath(slug)}/unlock`, { method: 'POST', json: { password } });
}

export function createDownloadSession(slug: string, unlockToken: string | null, recipientToken: string | undefined): Promise<DownloadSession> {
  return publicRequest<DownloadSession>(`${transferPath(slug)}/sessions`, {
    method: 'POST',
    json: recipientToken ? { recipientToken } : {},
    headers: unlockHeaders(unlockToken),
  });
}

/** How often the page asks again while files are being checked for viruses (the server says seconds). */
export const SCAN_POLL_MS = 5_000;

/** The transfer was sent while its files were still being imported: its link works once the last lands. */
export const isFilesArriving = (error: unknown) => isApiRequestError(error) && error.status === 409 && error.code === 'files_arriving';

/** How often the page asks again while the files are still arriving: the server's Retry-After, else this. */
export const ARRIVING_POLL_MS = 15_000;

/**
 * The transfer as this visitor sees it. The unlock token is part of the key (memory only), so
 * unlocking loads the transfer afresh. Not refetched behind the visitor's back (the public API is
 * rate limited per address), except every few seconds while a file is being checked for viruses, and
 * while the files are still arriving (as often as the server's Retry-After asks). `currentVisit` names
 * this page's visit on each read, so that once the visit has counted as the last download the limit
 * allows, the poll still answers and its remaining files can be downloaded.
 */
export function publicTransferQueryOptions(slug: string, unlockToken: string | null, currentVisit: () => string | undefined = () => undefined) {
  return queryOptions({
    queryKey: ['public', 'transfer', slug, unlockToken] as const,
    queryFn: () => getPublicTransfer(slug, unlockToken, currentVisit()),
    // The page's HTML carries the transfer as the API would answer it, except behind a password.
    initialData: () => (unlockToken === null ? takePublicPageData('transfer', slug, 'transfer', (d) => d.transfer) : undefined),
    refetchInterval: (query) => {
      const { data, error } = query.state;
      if (isFilesArriving(error)) return isApiRequestError(error) && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : ARRIVING_POLL_MS;
      return data?.files.some((f) => f.scanPending) ? SCAN_POLL_MS : false;
    },
    staleTime: Infinity,
    // Gone as soon as nobody shows it, except the first view's (see FIRST_VIEW_GC_MS).
    gcTime: firstViewGcTime('transfer', slug, 0),
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
