/**
 * End-to-end encryption benchmarks (`npm run bench:e2ee`), each beside a baseline in the same run:
 *
 * 1. **encrypt + upload**: one file uploaded to a real server through tus as an end-to-end encrypted
 *    transfer, encrypted on the fly with src/crypto exactly as the browser does (1 MiB chunks read
 *    from the plaintext as tus asks for ciphertext ranges), against the same file uploaded as a plain
 *    transfer with the same client. Throughput in plaintext MB/s, and the ratio.
 * 2. **decrypt in Chromium**: a ciphertext fetched from a loopback server and decrypted in the page
 *    with src/crypto's decrypting stream, against the same bytes fetched and counted without
 *    decrypting. The page's JS heap is sampled every 100 ms through the DevTools protocol and its
 *    peak reported: it must stay bounded (a few chunks), whatever the file's size.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import type * as cryptoModule from '../src/crypto/index.js';
import { ciphertextSize, createEncryptedSource, deriveLinkKeys, newLinkKey, toBase64url, type PlainSource } from '../src/crypto/index.js';

type CryptoModule = typeof cryptoModule;
import type { RunningServer } from '../src/server/assembly/runtime.js';
import { apiClient, freePort, MB, mbps, median, positiveIntEnv, runMain, startBenchServer, tusCreate, writeRandomFile } from './support.js';

/** How much ciphertext one request body carries at a time: what tus-js-client's chunking would ask for. */
const WINDOW = 8 * MB;

/** Plaintext bytes [start, end) of a file on disk, read on demand: what a browser's File.slice gives. */
async function fileSource(file: string): Promise<PlainSource & { close(): Promise<void> }> {
  const fh = await fsp.open(file, 'r');
  const { size } = await fh.stat();
  return {
    size,
    read: async (start, end) => {
      const bytes = new Uint8Array(end - start);
      let at = 0;
      while (at < bytes.length) {
        const { bytesRead } = await fh.read(bytes, at, bytes.length - at, start + at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return bytes.subarray(0, at);
    },
    close: () => fh.close(),
  };
}

/** One tus PATCH of `length` bytes from `body`, timed from the request to its 204. */
function patch(uploadUrl: string, token: string, body: Readable, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(uploadUrl, {
      method: 'PATCH',
      agent: false,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(length),
        'x-service-upload-token': token,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 204 || res.headers['upload-offset'] !== String(length)) reject(new Error(`PATCH: ${res.statusCode}, offset ${res.headers['upload-offset']}`));
        else resolve(performance.now() - started);
      });
    });
    req.on('error', reject);
    body.on('error', (err) => req.destroy(err));
    body.pipe(req);
  });
}

interface UploadTarget {
  id: string;
  uploadToken: string;
}

async function uploadLine(server: RunningServer, apiKey: string, file: string, size: number, rounds: number) {
  const api = apiClient(server, apiKey);
  const encrypted = async () => {
    const plain = await fileSource(file);
    try {
      const keys = await deriveLinkKeys(newLinkKey());
      const source = await createEncryptedSource(keys.content, plain);
      const created = await api<{ tusEndpoint: string; files: UploadTarget[] }>('POST', '/api/v1/transfers', { e2ee: true, files: [{ name: 'sealed', size: source.size }] });
      const target = created.files[0]!;
      const url = await tusCreate(created.tusEndpoint, target.uploadToken, source.size);
      const body = Readable.from(
        (async function* () {
          for (let at = 0; at < source.size; at += WINDOW) yield await source.read(at, Math.min(source.size, at + WINDOW));
        })(),
        { objectMode: false },
      );
      return await patch(url, target.uploadToken, body, source.size);
    } finally {
      await plain.close();
    }
  };
  const plainUpload = async () => {
    const created = await api<{ tusEndpoint: string; files: UploadTarget[] }>('POST', '/api/v1/transfers', { files: [{ name: 'plain.bin', size }] });
    const target = created.files[0]!;
    const url = await tusCreate(created.tusEndpoint, target.uploadToken, size);
    return patch(url, target.uploadToken, fs.createReadStream(file, { highWaterMark: 256 * 1024 }), size);
  };
  // An untimed warm-up of each, then rounds alternating which goes first.
  await encrypted();
  await plainUpload();
  const e2ee: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      e2ee.push(await encrypted());
      plain.push(await plainUpload());
    } else {
      plain.push(await plainUpload());
      e2ee.push(await encrypted());
    }
  }
  return { e2ee: mbps(size, median(e2ee)), plain: mbps(size, median(plain)) };
}

/** src/crypto as one script for the page, built by Vite. */
async function cryptoBundle(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: path.resolve('src/crypto/index.ts'), formats: ['iife'], name: 'ParcelCrypto', fileName: () => 'crypto.js' } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string }[] }[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk' && o.code);
  if (!chunk?.code) throw new Error('could not bundle src/crypto');
  return chunk.code;
}

async function decryptLine(dir: string, sizeMb: number, rounds: number) {
  const size = sizeMb * MB;
  const plainFile = path.join(dir, 'decrypt-plain.bin');
  const cipherFile = path.join(dir, 'decrypt-cipher.bin');
  console.log(`writing and encrypting a ${sizeMb} MB test file…`);
  await writeRandomFile(plainFile, size);
  const key = newLinkKey();
  const keys = await deriveLinkKeys(key);
  const plain = await fileSource(plainFile);
  const source = await createEncryptedSource(keys.content, plain);
  const out = await fsp.open(cipherFile, 'w');
  for (let at = 0; at < source.size; at += WINDOW) await out.write(await source.read(at, Math.min(source.size, at + WINDOW)));
  await out.close();
  await plain.close();
  await fsp.rm(plainFile);

  const script = await cryptoBundle();
  const page = '<!doctype html><meta charset="utf-8"><title>decrypt</title><script src="/crypto.js"></script>';
  const site = http.createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else if (req.url === '/crypto.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (req.url === '/cipher.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(source.size), 'cache-control': 'no-store' });
      fs.createReadStream(cipherFile, { highWaterMark: 256 * 1024 }).pipe(res);
    } else res.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${port}/`);
    const cdp = await tab.context().newCDPSession(tab);
    const args = { key: toBase64url(key), salt: toBase64url(source.salt), size };
    // The JS heap and the ArrayBuffers' backing stores (where the bytes of a stream's chunks live).
    const held = async () => {
      const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
      return usage.usedSize + (usage.backingStorageSize ?? 0);
    };
    const run = async (decrypt: boolean) => {
      await cdp.send('HeapProfiler.collectGarbage');
      const before = await held();
      let peak = before;
      const sampler = setInterval(() => {
        void held().then(
          (bytes) => (peak = Math.max(peak, bytes)),
          () => undefined,
        );
      }, 100);
      try {
        const result = await tab.evaluate(
          async ({ decrypt, key, salt, size }) => {
            const C = (window as unknown as { ParcelCrypto: CryptoModule }).ParcelCrypto;
            const keys = await C.deriveLinkKeys(C.fromBase64url(key));
            const started = performance.now();
            const res = await fetch('/cipher.bin');
            const body = decrypt ? res.body!.pipeThrough(C.createDecryptStream(keys.content, { salt: C.fromBase64url(salt), size })) : res.body!;
            const reader = body.getReader();
            let bytes = 0;
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              bytes += value.length;
            }
            return { ms: performance.now() - started, bytes };
          },
          { decrypt, ...args },
        );
        const expected = decrypt ? size : source.size;
        if (result.bytes !== expected) throw new Error(`${decrypt ? 'decrypted' : 'fetched'} ${result.bytes} bytes, expected ${expected}`);
        return { ms: result.ms, peakHeap: peak - before };
      } finally {
        clearInterval(sampler);
      }
    };
    await run(true);
    await run(false);
    const decrypted: { ms: number; peakHeap: number }[] = [];
    const fetched: { ms: number; peakHeap: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [true, false] : [false, true];
      for (const decrypt of order) (decrypt ? decrypted : fetched).push(await run(decrypt));
    }
    return {
      decrypt: mbps(size, median(decrypted.map((r) => r.ms))),
      fetch: mbps(size, median(fetched.map((r) => r.ms))),
      peakHeap: Math.max(...decrypted.map((r) => r.peakHeap)),
      fetchPeakHeap: Math.max(...fetched.map((r) => r.peakHeap)),
    };
  } finally {
    await browser.close();
    await new Promise((resolve) => site.close(resolve));
  }
}

async function main() {
  const sizeMb = positiveIntEnv('BENCH_MB', 256);
  const decryptMb = positiveIntEnv('BENCH_DECRYPT_MB', 1024);
  const rounds = positiveIntEnv('BENCH_ROUNDS', 3);
  const size = sizeMb * MB;
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-e2ee-'));
  let server: RunningServer | null = null;
  const cleanup = async () => {
    await server?.close().catch((err: unknown) => console.error('could not stop the server:', err));
    await fsp.rm(dataDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  try {
    const file = path.join(dataDir, 'upload.bin');
    console.log(`writing a ${sizeMb} MB test file…`);
    await writeRandomFile(file, size);
    const ceiling = Math.max(5 * 1000 ** 3, 4 * (rounds + 1) * ciphertextSize(size));
    console.log('starting the server…');
    const started = await startBenchServer(dataDir, { transferBytes: ceiling, monthBytes: ceiling });
    server = started.server;
    const secret = started.apiKey;

    console.log(`upload: ${rounds} rounds of ${sizeMb} MB, end-to-end encrypted and plain…`);
    const upload = await uploadLine(started.server, secret, file, size, rounds);
    console.log(`decrypt: ${rounds} rounds of ${decryptMb} MB in Chromium…`);
    const decrypt = await decryptLine(dataDir, decryptMb, rounds);

    const line = (label: string, value: string) => console.log(`${label.padEnd(34)} ${value}`);
    console.log(`\nNode ${process.version}, ${os.platform()}-${os.arch()}, ${os.cpus().length} CPUs, loopback; medians of ${rounds} rounds after a warm-up\n`);
    line('encrypt + upload (e2ee transfer)', `${upload.e2ee.toFixed(0)} MB/s   plain upload ${upload.plain.toFixed(0)} MB/s   ratio ${(upload.e2ee / upload.plain).toFixed(2)}`);
    line(`decrypt ${decryptMb} MB in Chromium`, `${decrypt.decrypt.toFixed(0)} MB/s   fetch only ${decrypt.fetch.toFixed(0)} MB/s   ratio ${(decrypt.decrypt / decrypt.fetch).toFixed(2)}`);
    line('page heap + buffers, peak over idle', `${(decrypt.peakHeap / MB).toFixed(1)} MB decrypting   ${(decrypt.fetchPeakHeap / MB).toFixed(1)} MB fetch only`);
  } finally {
    await cleanup();
  }
}

runMain(main);
