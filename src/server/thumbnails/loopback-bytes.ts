import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { decideRange } from '../downloads/http.js';
import type { FileStorage } from '../storage/storage.js';

/**
 * One stored file offered to a preview tool (ffmpeg, the PDF renderer) as `http://127.0.0.1:<port>/<secret>`, with
 * Range, for as long as `use` runs. The tools seek (an MP4's index is often at its end, a PDF's cross-reference
 * table always is) and read only what they need, the same way from disk and from S3; the file is never copied
 * whole, nor held in memory. Only this one file at this one unguessable path is served, to loopback only.
 */
export async function withLoopbackBytes<T>(storage: FileStorage, key: string, size: number, use: (url: string) => Promise<T>): Promise<T> {
  const secret = randomBytes(24).toString('base64url');
  const server: Server = createServer((req, res) => {
    if (req.url !== `/${secret}` || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const range = decideRange(req.headers.range, size);
    if (range.kind === 'unsatisfiable') {
      res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
    res.writeHead(range.kind === 'partial' ? 206 : 200, {
      'Accept-Ranges': 'bytes',
      'Content-Length': String(Math.max(0, end - start + 1)),
      ...(range.kind === 'partial' ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
      'Content-Type': 'application/octet-stream',
    });
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    // A tool that seeks closes its connection mid-body: that ends this read, nothing more.
    pipeline(storage.read(key, { start, end }), res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  try {
    const { port } = server.address() as AddressInfo;
    return await use(`http://127.0.0.1:${port}/${secret}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
