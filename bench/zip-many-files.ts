/**
 * `npm run bench:zip-many`: the zip of a transfer of many small files (default 10,000 of 32 KiB)
 * streamed through `/dl`, with the server's RSS sampled every 100 ms against the bytes received.
 * Streaming means the memory stays flat as the download progresses: the archive's layout (a few
 * dozen bytes of headers per entry) is computed up front, and file data goes from disk to socket
 * one file at a time. A raw Node handler streaming the same stored files back to back (a child
 * process too) gives the throughput baseline.
 *
 *   BENCH_ZIP_FILES    files in the transfer, default 10000
 *   BENCH_ZIP_FILE_KB  size of each file in KiB, default 32
 *   BENCH_ROUNDS       downloads of the zip (each sampled), default 3
 *
 * The files are uploaded through the public API (1,000 registered per call, tus creation-with-upload,
 * 8 at a time); that part is not measured.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRawNode, type BaselineServer } from './baselines.js';
import { createKey, machineLine, mb, printServerErrors, rssSampler, type ServerProcess, signUp, startServerProcess } from './server-process.js';
import { apiClient, cleanupOnExit, MB, mbps, positiveIntEnv, runMain, streamDownload } from './support.js';

interface UploadTarget {
  id: string;
  uploadToken: string;
}
interface DownloadLinks {
  files: { fileId: string; sizeBytes: number }[];
  zip: { url: string; sizeBytes: number };
}

async function main() {
  const fileCount = positiveIntEnv('BENCH_ZIP_FILES', 10_000);
  const fileSize = positiveIntEnv('BENCH_ZIP_FILE_KB', 32) * 1024;
  const rounds = positiveIntEnv('BENCH_ROUNDS', 3);

  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-zip-'));
  let server: ServerProcess | null = null;
  let baseline: BaselineServer | null = null;
  const cleanup = cleanupOnExit(async () => {
    await baseline?.stop().catch((err: unknown) => console.error('could not stop the baseline:', err));
    await server?.stop().catch((err: unknown) => console.error('could not stop the server:', err));
    await fsp.rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.error(`could not remove ${dataDir}:`, err));
  });

  try {
    console.log('starting the server (child process)…');
    server = await startServerProcess(dataDir);
    const running = server;
    const { cookie } = await signUp(running.url, 'zip');
    const key = await createKey(running.url, cookie, ['transfers:read', 'transfers:write']);
    const api = apiClient(running, key);

    // Register the files, 1,000 per call (the API's limit), in folders of 500.
    const spec = (i: number) => ({ name: `file-${String(i).padStart(5, '0')}.bin`, size: fileSize, path: `part-${Math.floor(i / 500)}` });
    const batch = (from: number) => Array.from({ length: Math.min(1000, fileCount - from) }, (_, j) => spec(from + j));
    const created = await api<{ id: string; tusEndpoint: string; files: UploadTarget[] }>('POST', '/api/v1/transfers', { title: 'many files', files: batch(0) });
    const targets = [...created.files];
    for (let from = 1000; from < fileCount; from += 1000) {
      targets.push(...(await api<{ files: UploadTarget[] }>('POST', `/api/v1/transfers/${created.id}/files`, { files: batch(from) })).files);
    }

    console.log(`uploading ${fileCount} files of ${fileSize / 1024} KiB (tus creation-with-upload, 8 at a time)…`);
    const base = randomBytes(fileSize);
    let next = 0;
    const uploadStarted = performance.now();
    const worker = async () => {
      for (let i = next++; i < targets.length; i = next++) {
        const body = Buffer.from(base);
        body.writeUInt32BE(i, 0); // every file different
        const res = await fetch(created.tusEndpoint, {
          method: 'POST',
          headers: {
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(fileSize),
            'Content-Type': 'application/offset+octet-stream',
            'x-service-upload-token': targets[i]!.uploadToken,
          },
          body,
        });
        await res.arrayBuffer();
        if (res.status !== 201 || res.headers.get('upload-offset') !== String(fileSize)) throw new Error(`upload ${i}: ${res.status}, offset ${res.headers.get('upload-offset')}`);
        if ((i + 1) % 2000 === 0) console.log(`  ${i + 1} uploaded`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    await api('POST', `/api/v1/transfers/${created.id}/finalize`, {});
    const links = await api<DownloadLinks>('GET', `/api/v1/transfers/${created.id}/download-links`);
    if (links.files.length !== fileCount) throw new Error(`download-links lists ${links.files.length} files, expected ${fileCount}`);
    const filesTotal = links.files.reduce((s, f) => s + f.sizeBytes, 0);
    baseline = await startRawNode(dataDir, {
      '/zip': { files: links.files.map((f) => path.join(dataDir, 'files', f.fileId)), padding: links.zip.sizeBytes - filesTotal },
    });
    const zipSize = links.zip.sizeBytes;

    const idleRss = running.rss();
    console.log(`downloading the zip (${mb(zipSize)} MB), ${rounds} round(s), with the raw Node baseline after each…`);
    const heapBefore = await running.heapAfterGc();
    const results: { ms: number; baselineMs: number; samples: { rss: number; progress: number }[]; heapAfter: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      let received = 0;
      const sampler = rssSampler(running.pid, 100, () => received);
      const r = await streamDownload(links.zip.url, zipSize, (n) => (received = n));
      const samples = sampler.stop();
      const b = await streamDownload(`${baseline.url}/zip`, zipSize);
      results.push({ ms: r.ms, baselineMs: b.ms, samples, heapAfter: (await running.heapAfterGc()).heapUsed });
    }

    // ------------------------------------------------------------------ report
    console.log('');
    console.log(`zip of ${fileCount} files × ${fileSize / 1024} KiB = ${(zipSize / MB).toFixed(1)} MB (${zipSize - filesTotal} bytes of zip headers), ${rounds} download(s), RSS sampled every 100 ms`);
    console.log(await machineLine());
    console.log(`server: child process, embedded PostgreSQL; baseline: raw Node streaming the same stored files back to back (child process)`);
    console.log(`upload of the ${fileCount} files took ${uploadSeconds.toFixed(0)} s (not measured further); server RSS before the first download ${mb(idleRss)} MB`);
    console.log('');
    for (const [i, r] of results.entries()) {
      const rss = r.samples.map((s) => s.rss);
      const at = (f: number) => r.samples.find((s) => s.progress >= f * zipSize)?.rss ?? NaN;
      console.log(
        `round ${i + 1}: /dl ${mbps(zipSize, r.ms).toFixed(0)} MB/s, raw Node ${mbps(zipSize, r.baselineMs).toFixed(0)} MB/s, ratio ${(r.baselineMs / r.ms).toFixed(2)}; ` +
          `server RSS first ${mb(rss[0]!)} min ${mb(Math.min(...rss))} max ${mb(Math.max(...rss))} last ${mb(rss.at(-1)!)} MB; ` +
          `at 10% ${mb(at(0.1))}, 50% ${mb(at(0.5))}, 90% ${mb(at(0.9))} MB of the bytes (${r.samples.length} samples)`,
      );
    }
    console.log(`server live heap after a full GC: ${mb(heapBefore.heapUsed)} MB before the first download, after each: ${results.map((r) => mb(r.heapAfter)).join(', ')} MB`);
    await printServerErrors(running.logFile);
  } finally {
    await cleanup();
  }
}

runMain(main);
