import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The raw-Node baseline of bench/downloads.ts and bench/zip-many-files.ts, run as a child process
 * like the server it is compared with: `GET <route>` answers 200 with the route's files read from
 * disk back to back (fs.createReadStream with 256 KiB reads, as DiskStorage.read does, piped into
 * the response), then `padding` zero bytes, under an exact Content-Length.
 *
 *   node --import tsx bench/raw-file-server.ts <routes.json>
 *   routes.json: { "/file": { "files": ["/path/a"], "padding": 0 }, … }
 *
 * Prints `listening <port>` once it listens on 127.0.0.1.
 */
const READ_CHUNK = 256 * 1024;
const routes = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Record<string, { files: string[]; padding: number }>;
const sizes = Object.fromEntries(Object.entries(routes).map(([route, r]) => [route, r.files.reduce((s, f) => s + fs.statSync(f).size, 0) + r.padding]));

const server = http.createServer((req, res) => {
  const route = req.method === 'GET' ? routes[req.url ?? ''] : undefined;
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(sizes[req.url!]) });
  // Plain .pipe() per file (pipeline with `end: false` would pile listeners up on the response).
  const next = (i: number): void => {
    if (i === route.files.length) {
      res.end(route.padding > 0 ? Buffer.alloc(route.padding) : undefined);
      return;
    }
    const source = fs.createReadStream(route.files[i]!, { highWaterMark: READ_CHUNK });
    source.once('error', () => res.destroy());
    source.once('end', () => next(i + 1));
    source.pipe(res, { end: false });
  };
  next(0);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
