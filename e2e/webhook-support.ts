import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it arrived: what the signature covers. */
  rawBody: Buffer;
}

/** A webhook receiver on 127.0.0.1 (random port) that answers 200 and records every request. */
export async function startReceiver() {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Checks `Service-Signature: t=<unix seconds>,v1=<hex>` the way a receiver should: HMAC-SHA256 of
 * "<t>.<raw body>" keyed with the secret, compared in constant time, `t` within five minutes.
 */
export function signatureVerifies(rawBody: Buffer, header: string | undefined, secret: string, now = Date.now()): boolean {
  if (!header) return false;
  const fields = new Map(header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]));
  const t = Number(fields.get('t'));
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  const given = Buffer.from(fields.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
