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
import type { TestServer } from './harness.js';

/**
 * Helpers for the webhook delivery, SSRF and crash tests: real HTTP receivers on 127.0.0.1, a
 * signature verifier written from the spec (not the server's signing code), an outbound guard that
 * never lets a socket leave loopback, and thin clients for the webhook and transfer API.
 */

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
