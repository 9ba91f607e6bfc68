import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { RunningServer } from '../src/server/runtime.js';

/** What the benchmarks share: settings from the environment, a free port, test files, the API client and tus creation. */

export const MB = 1024 * 1024;

export function positiveIntEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}


export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}


/** Writes `size` bytes of crypto-random data, 1 MiB at a time: the file is never held in memory. */
export async function writeRandomFile(file: string, size: number): Promise<void> {
  const fh = await fsp.open(file, 'w');
  try {
    for (let written = 0; written < size; ) {
      const chunk = randomBytes(Math.min(MB, size - written));
      await fh.write(chunk);
      written += chunk.length;
    }
    // On disk before anything is measured, so that no writeback of it runs during a measurement.
    await fh.sync();
  } finally {
    await fh.close();
  }
}


export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);


export function apiClient(server: RunningServer, apiKey: string) {
  return async <T>(method: string, pathname: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}


/** tus creation (no body); returns the absolute upload URL. */
export async function tusCreate(endpoint: string, token: string, size: number): Promise<string> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'x-service-upload-token': token },
  });
  const location = res.headers.get('location');
  if (res.status !== 201 || !location) throw new Error(`tus POST: ${res.status} ${await res.text()}`);
  return new URL(location, endpoint).toString();
}

