import { ApiRequestError, errorFromResponse } from './api-error';
import { currentIntl, documentLocale } from './intl';

export interface JsonRequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends one request; resolves with the raw response, or rejects with `network_error` when nothing came back. */
export async function send(url: string, init: JsonRequestInit = {}): Promise<Response> {
  // The server writes its refusals in the page's language (the one the reader chose, not only the browser's).
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': documentLocale(), ...init.headers };
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    throw new ApiRequestError({
      status: 0,
      code: 'network_error',
      message: currentIntl().formatMessage({ id: 'pages.http.networkError', defaultMessage: 'Could not reach the server. Check your connection and try again.' }),
    });
  }
}

/** The JSON body of a 2xx response (undefined for 204), or the server's error as an `ApiRequestError`. */
export async function readJson<T>(response: Response): Promise<T> {
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

export async function requestJson<T>(url: string, init: JsonRequestInit = {}): Promise<T> {
  return readJson<T>(await send(url, init));
}
