import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../test/fetch-stub';
import { ApiRequestError } from './api-error';
import { createV1Client } from './v1-client';

const minute = 60_000;

function tokenSource(now: () => number) {
  let issued = 0;
  const fetchToken = vi.fn(async () => {
    issued += 1;
    return { accessToken: `tok_${issued}`, expiresAt: new Date(now() + 15 * minute).toISOString() };
  });
  return fetchToken;
}

describe('v1 client', () => {
  it('sends the bearer token and reuses it until 30 seconds before it expires', async () => {
    let clock = Date.parse('2026-11-20T10:00:00Z');
    const now = () => clock;
    const fetchToken = tokenSource(now);
    const network = stubFetch({ 'GET /api/v1/me': json({ ok: true }) });
    const client = createV1Client({ fetchToken, now });

    await client.fetch('/me');
    clock += 14 * minute;
    await client.fetch('/me');
    expect(fetchToken).toHaveBeenCalledTimes(1);

    clock += 31_000; // now 29 s before expiry
    await client.fetch('/me');
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(network.requests.map((request) => request.headers.get('Authorization'))).toEqual([
      'Bearer tok_1',
      'Bearer tok_1',
      'Bearer tok_2',
    ]);
  });

  it('gets a fresh token and retries once when the API answers 401', async () => {
    const fetchToken = tokenSource(Date.now);
    const network = stubFetch({
      'GET /api/v1/me': ({ headers }) =>
        headers.get('Authorization') === 'Bearer tok_2' ? json({ ok: true }) : apiError(401, 'unauthorized', 'Token revoked'),
    });
    const client = createV1Client({ fetchToken });

    await expect(client.fetch('/me')).resolves.toEqual({ ok: true });
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(network.requests).toHaveLength(2);
  });

  it("gives up with the server's error when the retry is refused too", async () => {
    const fetchToken = tokenSource(Date.now);
    const network = stubFetch({ 'GET /api/v1/me': apiError(401, 'unauthorized', 'No valid credential') });
    const client = createV1Client({ fetchToken });

    const failure = client.fetch('/me');
    await expect(failure).rejects.toBeInstanceOf(ApiRequestError);
    await expect(failure).rejects.toMatchObject({ status: 401, code: 'unauthorized', message: 'No valid credential' });
    expect(network.requests).toHaveLength(2);
  });

  it('asks for a single token when several calls start at once', async () => {
    const fetchToken = tokenSource(Date.now);
    stubFetch({ 'GET /api/v1/me': json({}), 'GET /api/v1/me/referral': json({}) });
    const client = createV1Client({ fetchToken });

    await Promise.all([client.fetch('/me'), client.fetch('/me/referral'), client.fetch('/me')]);

    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('asks for a new token after it was forgotten (sign-out)', async () => {
    const fetchToken = tokenSource(Date.now);
    const network = stubFetch({ 'GET /api/v1/me': json({}) });
    const client = createV1Client({ fetchToken });

    await client.fetch('/me');
    client.forgetToken();
    await client.fetch('/me');

    expect(network.requests.map((request) => request.headers.get('Authorization'))).toEqual(['Bearer tok_1', 'Bearer tok_2']);
  });

  it('obtains its token from the dashboard with the session cookie by default', async () => {
    const network = stubFetch({
      'POST /api/dashboard/token': json({ accessToken: 'tok_cookie', expiresAt: new Date(Date.now() + 15 * minute).toISOString() }),
      'GET /api/v1/me': json({}),
    });
    const client = createV1Client();

    await client.fetch('/me');

    expect(network.requestsTo('POST /api/dashboard/token')).toHaveLength(1);
    expect(network.requestsTo('GET /api/v1/me')[0]?.headers.get('Authorization')).toBe('Bearer tok_cookie');
  });

  it('turns a network failure into an ApiRequestError with a readable message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const client = createV1Client({ fetchToken: async () => ({ accessToken: 't', expiresAt: new Date(Date.now() + minute * 10).toISOString() }) });

    await expect(client.fetch('/me')).rejects.toMatchObject({ code: 'network_error', status: 0 });
  });
});
