import { requestJson, type JsonRequestInit } from './http';

/**
 * Calls the dashboard's own endpoints under /api/dashboard. The session cookie is httpOnly and
 * goes along by itself; `path` is relative to /api/dashboard, e.g. `/keys`.
 */
export function dashboardFetch<T>(path: string, init: JsonRequestInit = {}): Promise<T> {
  return requestJson<T>(`/api/dashboard${path}`, init);
}
