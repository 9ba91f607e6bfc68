import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { expect } from 'vitest';
import { CreateTransferResponseSchema } from '../../contract/transfers.js';
import {
  PullEventsResponseSchema,
  WebhookDeliveryIdSchema,
  WebhookDeliveryListSchema,
  WebhookResponseSchema,
  WebhookWithSecretSchema,
} from '../../contract/webhooks.js';
import { defaultConnect, type ConnectFn, type ConnectTarget, type LookupFn } from '../net/safe-request.js';
import type { TestServer } from '../test/harness.js';

/**
 * Helpers for the webhook delivery, SSRF and crash tests: real HTTP receivers on 127.0.0.1, a
 * signature verifier written from the spec (not the server's signing code), an outbound guard that
 * never lets a socket leave loopback, and thin clients for the webhook and transfer API.
 */

// ---------------------------------------------------------------------------------------------
// Receivers

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The bytes exactly as they arrived: what a receiver verifies the signature over. */
  rawBody: Buffer;
}

/** How a receiver answers its n-th request (from 0). Not answering at all holds the request open. */
export type Answer = (req: ReceivedRequest, res: http.ServerResponse, n: number) => void;

export interface Receiver {
  /** `http://127.0.0.1:<port>`; give each endpoint its own path and read `at(path)`. */
  url: string;
  requests: ReceivedRequest[];
  at(path: string): ReceivedRequest[];
  /** Resolves once `count` requests have arrived in all. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const answers = {
  status:
    (code: number, body = ''): Answer =>
    (_req, res) => {
      res.writeHead(code, { 'content-type': 'text/plain' });
      res.end(body);
    },
  redirect:
    (location: string): Answer =>
    (_req, res) => {
      res.writeHead(302, { location });
      res.end();
    },
  /** Reads the request and never answers; the sender has to give up. */
  never: (): Answer => () => {},
};

export async function startReceiver(answer: Answer): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<net.Socket>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) };
      const n = requests.push(received) - 1;
      answer(received, res, n);
      for (const w of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  server.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    at: (path) => requests.filter((r) => r.path === path),
    waitForRequests(count, timeoutMs = 30_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${requests.length} of ${count} requests`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const sock of sockets) sock.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Signatures, as an integrator verifies them

const TOLERANCE_SECONDS = 5 * 60;

/**
 * Verifies `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` the way
 * the spec tells a receiver to: the HMAC over the raw bytes, compared in constant time, and a `t`
 * no more than five minutes from the receiver's clock. Independent of the server's signing code.
 */
export function verifySignature(secret: string, header: string | string[] | undefined, rawBody: Buffer, now: Date): boolean {
  if (typeof header !== 'string') return false;
  const fields = new Map(
    header.split(',').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const t = fields.get('t');
  const v1 = fields.get('v1');
  if (!t || !/^\d+$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(t)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(v1, 'hex'), expected);
}

/** The envelope a receiver gets, parsed strictly: exactly these four keys. */
export function parseEnvelope(rawBody: Buffer): { id: string; type: string; createdAt: string; data: Record<string, unknown> } {
  const body = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
  return body as { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------
// The outbound guard: nothing ever leaves 127.0.0.0/8 and ::1

const isLoopback = (host: string) => (net.isIPv4(host) && host.startsWith('127.')) || host === '::1';

/**
 * An injected resolver answering from `names`, and a connect function that opens real sockets
 * only to loopback addresses. Any other address is recorded and refused without a packet sent,
 * so a broken guard shows up as a recorded call (which the tests assert against), never as traffic.
 */
export function outboundGuard() {
  const names = new Map<string, string[]>();
  const lookups: string[] = [];
  let connects: ConnectTarget[] = [];
  const lookup: LookupFn = async (hostname) => {
    lookups.push(hostname);
    const addresses = names.get(hostname);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  const connect: ConnectFn = (target) => {
    connects.push(target);
    if (isLoopback(target.host)) return defaultConnect(target);
    return Promise.reject(new Error(`test guard: no connection to ${target.host} (only loopback may be reached)`));
  };
  return {
    names,
    lookups,
    lookup,
    connect,
    /** The connect calls so far, forgotten once taken. */
    takeConnects(): ConnectTarget[] {
      const taken = connects;
      connects = [];
      return taken;
    },
    isLoopback,
  };
}

// ---------------------------------------------------------------------------------------------
// API clients

/** The webhook API of one workspace, each call checked against its status and response schema. */
export function webhooksApi(server: TestServer, key: string) {
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => server.fetch(`/api/v1${path}`, { token: key, ...init });
  const expectStatus = async (res: Response, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
    return res.json();
  };
  return {
    call,
    async create(body: { url: string | null; events: string[]; description?: string }) {
      return WebhookWithSecretSchema.parse(await expectStatus(await call('/webhooks', { method: 'POST', json: body }), 201));
    },
    async get(id: string) {
      return WebhookResponseSchema.parse(await expectStatus(await call(`/webhooks/${id}`), 200)).webhook;
    },
    async update(id: string, body: Record<string, unknown>) {
      return WebhookResponseSchema.parse(await expectStatus(await call(`/webhooks/${id}`, { method: 'PATCH', json: body }), 200)).webhook;
    },
    async rotate(id: string) {
      return WebhookWithSecretSchema.parse(await expectStatus(await call(`/webhooks/${id}/rotate-secret`, { method: 'POST' }), 200)).secret;
    },
    /** Sends a `webhook.test` event; returns its delivery id. */
    async test(id: string) {
      return WebhookDeliveryIdSchema.parse(await expectStatus(await call(`/webhooks/${id}/test`, { method: 'POST' }), 202)).deliveryId;
    },
    async retry(id: string, deliveryId: string) {
      return WebhookDeliveryIdSchema.parse(await expectStatus(await call(`/webhooks/${id}/deliveries/${deliveryId}/retry`, { method: 'POST' }), 202)).deliveryId;
    },
    async deliveries(id: string, deliveryId?: string) {
      const query = deliveryId ? `?deliveryId=${deliveryId}` : '';
      return WebhookDeliveryListSchema.parse(await expectStatus(await call(`/webhooks/${id}/deliveries${query}`), 200));
    },
    /** The attempts of one delivery, oldest first. */
    async attempts(id: string, deliveryId: string) {
      return (await this.deliveries(id, deliveryId)).attempts.reverse();
    },
    async events(id: string, query: { cursor?: string; limit?: number } = {}) {
      const params = new URLSearchParams();
      if (query.cursor !== undefined) params.set('cursor', query.cursor);
      if (query.limit !== undefined) params.set('limit', String(query.limit));
      return PullEventsResponseSchema.parse(await expectStatus(await call(`/webhooks/${id}/events?${params}`), 200));
    },
  };
}

/**
 * Sends a transfer of one empty file through the public API, as an integrator would: create the
 * draft, create the file's tus upload (a zero-byte file is complete at once), finalize. Emits
 * `transfer.ready`. Returns the transfer id.
 */
export async function sendTransfer(server: TestServer, key: string, title = 'Quarterly report'): Promise<string> {
  const created = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { title, files: [{ name: 'empty.txt', size: 0 }] } });
  if (created.status !== 201) throw new Error(`create transfer: ${created.status} ${await created.text()}`);
  const draft = CreateTransferResponseSchema.parse(await created.json());
  for (const file of draft.files) {
    const upload = await fetch(`${server.url}/files/`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': file.uploadToken, 'upload-length': '0' },
    });
    if (upload.status !== 201) throw new Error(`tus create: ${upload.status} ${await upload.text()}`);
  }
  const finalized = await server.fetch(`/api/v1/transfers/${draft.id}/finalize`, { method: 'POST', token: key });
  if (finalized.status !== 200) throw new Error(`finalize: ${finalized.status} ${await finalized.text()}`);
  return draft.id;
}

/** Revokes a sent transfer: emits `transfer.expired` with reason `revoked`. */
export async function revokeTransfer(server: TestServer, key: string, transferId: string): Promise<void> {
  const res = await server.fetch(`/api/v1/transfers/${transferId}/revoke`, { method: 'POST', token: key });
  if (res.status !== 200) throw new Error(`revoke: ${res.status} ${await res.text()}`);
}
