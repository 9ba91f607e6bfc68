import type { AccessToken } from '../../contract/dashboard';
import { dashboardFetch } from './dashboard-fetch';
import { readJson, send, type JsonRequestInit } from './http';

export interface V1ClientOptions {
  /** Obtains a short-lived bearer token; by default `POST /api/dashboard/token` with the session cookie. */
  fetchToken?: () => Promise<AccessToken>;
  now?: () => number;
  /** A token is replaced this long before it expires, so none expires in flight. */
  refreshMarginMs?: number;
}

export interface V1Client {
  /** Calls /api/v1 with a bearer token; `path` is relative to /api/v1, e.g. `/me`. */
  fetch<T>(path: string, init?: JsonRequestInit): Promise<T>;
  /** Drops the cached token, e.g. when the user signs in or out. */
  forgetToken(): void;
}

/**
 * The public API does not accept the session cookie: the dashboard trades it for a short-lived
 * bearer token, caches that until shortly before it expires, and on a 401 (revoked, or the clock
 * disagrees) fetches a fresh one and retries once.
 */
export function createV1Client(options: V1ClientOptions = {}): V1Client {
  const fetchToken = options.fetchToken ?? (() => dashboardFetch<AccessToken>('/token', { method: 'POST' }));
  const now = options.now ?? Date.now;
  const refreshMarginMs = options.refreshMarginMs ?? 30_000;

  let cached: { token: string; refreshAt: number } | null = null;
  let pending: Promise<string> | null = null;
  // Bumped by forgetToken so a token requested before it is not cached after it.
  let generation = 0;

  function accessToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
    if (pending) return pending;
    const requestedIn = generation;
    const request = fetchToken()
      .then(({ accessToken, expiresAt }) => {
        if (requestedIn === generation) {
          cached = { token: accessToken, refreshAt: Date.parse(expiresAt) - refreshMarginMs };
        }
        return accessToken;
      })
      .finally(() => {
        if (pending === request) pending = null;
      });
    pending = request;
    return request;
  }

  function forgetToken() {
    generation += 1;
    cached = null;
    pending = null;
  }

  async function v1Fetch<T>(path: string, init: JsonRequestInit = {}): Promise<T> {
    const call = (token: string) =>
      send(`/api/v1${path}`, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
    let response = await call(await accessToken());
    if (response.status === 401) {
      forgetToken();
      response = await call(await accessToken());
    }
    return readJson<T>(response);
  }

  return { fetch: v1Fetch, forgetToken };
}

const defaultClient = createV1Client();

export const v1Fetch = defaultClient.fetch;
export const forgetAccessToken = defaultClient.forgetToken;
