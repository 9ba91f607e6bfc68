import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

/**
 * Webhook receivers for tests (Vitest and Playwright alike, so nothing here depends on either):
 * real HTTP servers on 127.0.0.1, and a signature verifier written from the spec rather than from
 * the server's signing code.
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
