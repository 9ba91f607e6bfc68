import { vi } from 'vitest';

/**
 * Fakes the network and nothing else: `fetch` answers from canned JSON chosen by method and
 * path ("POST /api/dashboard/keys", "DELETE /api/dashboard/keys/:id"). Every request is recorded.
 */

export interface StubRequest {
  method: string;
  path: string;
  url: URL;
  params: Record<string, string>;
  headers: Headers;
  body: unknown;
}

export interface StubResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type StubHandler = StubResponse | ((request: StubRequest) => StubResponse | Promise<StubResponse>);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): StubResponse {
  return { status, body, headers };
}

export const noContent: StubResponse = { status: 204 };

/** An error response in the service's shape. */
export function apiError(status: number, code: string, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): StubResponse {
  return { status, headers, body: { error: { code, message, details, docs: `http://localhost:8080/docs/errors#${code}` } } };
}

function match(pattern: string, path: string): Record<string, string> | null {
  const expected = pattern.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < expected.length; i += 1) {
    const segment = expected[i]!;
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(actual[i]!);
    else if (segment !== actual[i]) return null;
  }
  return params;
}

export function stubFetch(routes: Record<string, StubHandler>) {
  const requests: StubRequest[] = [];
  const table = Object.entries(routes).map(([key, handler]) => {
    const [method, pattern] = key.split(' ') as [string, string];
    return { method, pattern, handler };
  });

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost:8080');
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body ?? undefined;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // Not JSON: keep the string.
      }
    }
    let found: { handler: StubHandler; params: Record<string, string> } | undefined;
    for (const row of table) {
      const params = row.method === method ? match(row.pattern, url.pathname) : null;
      if (params) {
        found = { handler: row.handler, params };
        break;
      }
    }
    const request: StubRequest = { method, path: url.pathname, url, params: found?.params ?? {}, headers: new Headers(init.headers), body };
    requests.push(request);
    const answer = !found
      ? apiError(404, 'not_found', `No stub for ${method} ${url.pathname}`)
      : typeof found.handler === 'function'
        ? await found.handler(request)
        : found.handler;
    const status = answer.status ?? 200;
    return new Response(status === 204 || answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchStub);

  return {
    requests,
    /** The requests sent to one "METHOD /path" (exact path, no parameters). */
    requestsTo(key: string) {
      const [method, path] = key.split(' ');
      return requests.filter((request) => request.method === method && request.path === path);
    },
  };
}
