/**
 * `npm run bench:downloads`: a file and a zip through `/dl`, side by side with a raw Node handler
 * piping the same stored bytes and with nginx serving them with sendfile.
 *
 * Three servers, each a child process on its own loopback port, one client (this process) for all:
 *   candidate  the real server (bench/server-entry.ts, embedded PostgreSQL, logs at info to a file)
 *   raw Node   bench/raw-file-server.ts: fs.createReadStream (256 KiB reads) piped into the response
 *   nginx      Debian's nginx (installed when missing), one worker, sendfile on, an exact location
 *              aliased to the file
 * For the file line all three send the very file the server stored. For the zip line the server
 * builds the archive of the transfer (the big file plus 1 MiB, 64 KiB and 1 KiB files, STOREd);
 * raw Node streams the same four stored files back to back, padded with zeros to the zip's exact
 * size; nginx sends a copy of the zip the server produced, saved once before measuring.
 *
 *   BENCH_MB      size of the big file in MB (1 MB = 2^20 bytes), default 256
 *   BENCH_ROUNDS  counted rounds per line (median shown), default 5
 *
 * Each line runs one untimed warm-up of every side, then the rounds; the order of the three sides
 * rotates every round. The server's RSS is sampled every 50 ms during its runs; every side's CPU
 * time is read from /proc, as seconds per GB sent: on a machine shared with other work that figure
 * holds steady where MB/s does not.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { nginxVersion, startNginx, startRawNode, type BaselineServer } from './baselines.js';
import { cpuSeconds, createKey, machineLine, mb, printServerErrors, rssOf, type ServerProcess, signUp, startServerProcess } from './server-process.js';
import { apiClient, cleanupOnExit, MB, mbps, median, positiveIntEnv, runMain, streamDownload, tusCreate, tusPatchFile, writeRandomFile } from './support.js';

const SMALL_FILE_SIZES = [MB, 64 * 1024, 1024];

interface CreatedTransfer {
  id: string;
  tusEndpoint: string;
  files: { id: string; uploadToken: string }[];
}
interface DownloadLinks {
  files: { fileId: string; url: string; sizeBytes: number }[];
  zip: { url: string; sizeBytes: number };
}

type Side = 'candidate' | 'node' | 'nginx';
interface Run {
  ms: number;
  bytes: number;
  cpu: number;
  peakRss: number;
}

async function main() {
  const sizeMb = positiveIntEnv('BENCH_MB', 256);
  const rounds = positiveIntEnv('BENCH_ROUNDS', 5);
  const size = sizeMb * MB;

  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-dl-'));
  const workDir = path.join(dataDir, 'bench');
  let server: ServerProcess | null = null;
  const baselines: BaselineServer[] = [];
  const cleanup = cleanupOnExit(async () => {
    for (const b of baselines) await b.stop().catch((err: unknown) => console.error('could not stop a baseline:', err));
    await server?.stop().catch((err: unknown) => console.error('could not stop the server:', err));
    await fsp.rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.error(`could not remove ${dataDir}:`, err));
  });

  try {
    await fsp.mkdir(workDir, { recursive: true });
    const nginxName = nginxVersion();
    console.log(`writing a ${sizeMb} MB test file…`);
    const bigFile = path.join(workDir, 'big.bin');
    await writeRandomFile(bigFile, size);
    const entries = [{ name: 'big.bin', file: bigFile, size }];
    for (const [i, s] of SMALL_FILE_SIZES.entries()) {
      const file = path.join(workDir, `small-${i}.bin`);
      await writeRandomFile(file, s);
      entries.push({ name: `small-${i}.bin`, file, size: s });
    }

    console.log('starting the server (child process) and uploading the transfer…');
    server = await startServerProcess(dataDir);
    const running = server;
    const { cookie } = await signUp(running.url, 'downloads');
    const key = await createKey(running.url, cookie, ['transfers:read', 'transfers:write']);
    const api = apiClient(running, key);
    const t = await api<CreatedTransfer>('POST', '/api/v1/transfers', { title: 'downloads', files: entries.map((e) => ({ name: e.name, size: e.size })) });
    for (const [i, target] of t.files.entries()) {
      await tusPatchFile(await tusCreate(t.tusEndpoint, target.uploadToken, entries[i]!.size), target.uploadToken, entries[i]!.file, entries[i]!.size);
    }
    await api('POST', `/api/v1/transfers/${t.id}/finalize`, {});
    const links = await api<DownloadLinks>('GET', `/api/v1/transfers/${t.id}/download-links`);
    const bigLink = links.files.find((f) => f.sizeBytes === size);
    if (!bigLink) throw new Error('download-links has no entry for the big file');
    const stored = (fileId: string) => path.join(dataDir, 'files', fileId);
    const filesTotal = links.files.reduce((s, f) => s + f.sizeBytes, 0);

    // The zip as the server makes it, saved once: what nginx sends for the zip line.
    const savedZip = path.join(workDir, 'transfer.zip');
    await new Promise<void>((resolve, reject) => {
      http.get(links.zip.url, { agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`zip: ${res.statusCode}`));
        pipeline(res, fs.createWriteStream(savedZip)).then(resolve, reject);
      }).on('error', reject);
    });
    if ((await fsp.stat(savedZip)).size !== links.zip.sizeBytes) throw new Error('the saved zip is not zip.sizeBytes long');

    const node = await startRawNode(workDir, {
      '/file': { files: [stored(bigLink.fileId)] },
      '/zip': { files: links.files.map((f) => stored(f.fileId)), padding: links.zip.sizeBytes - filesTotal },
    });
    baselines.push(node);
    const nginx = await startNginx(workDir, { '/file': stored(bigLink.fileId), '/zip': savedZip });
    baselines.push(nginx);
    const idleRss = running.rss();

    const pidOf: Record<Side, { pid: number; children: boolean }> = {
      candidate: { pid: running.pid, children: false },
      node: { pid: node.pid, children: false },
      nginx: { pid: nginx.pid, children: true },
    };
    const measure = async (side: Side, url: string, expected: number): Promise<Run> => {
      const { pid, children } = pidOf[side];
      const cpuBefore = cpuSeconds(pid, children);
      let peakRss = side === 'candidate' ? running.rss() : 0;
      const timer = side === 'candidate' ? setInterval(() => (peakRss = Math.max(peakRss, rssOf(running.pid))), 50) : undefined;
      try {
        const r = await streamDownload(url, expected);
        return { ...r, cpu: cpuSeconds(pid, children) - cpuBefore, peakRss: side === 'candidate' ? Math.max(peakRss, running.rss()) : 0 };
      } finally {
        clearInterval(timer);
      }
    };

    const lines: { label: string; runs: Record<Side, Run[]> }[] = [];
    const sides: Side[] = ['candidate', 'node', 'nginx'];
    for (const [label, urls, expected] of [
      ['file download (/dl)', { candidate: bigLink.url, node: `${node.url}/file`, nginx: `${nginx.url}/file` }, size],
      ['zip download (/dl)', { candidate: links.zip.url, node: `${node.url}/zip`, nginx: `${nginx.url}/zip` }, links.zip.sizeBytes],
    ] as const) {
      console.log(`measuring ${label}, 1 warm-up + ${rounds} round(s)…`);
      const runs: Record<Side, Run[]> = { candidate: [], node: [], nginx: [] };
      for (const side of sides) await measure(side, urls[side], expected);
      for (let round = 0; round < rounds; round++) {
        const order = [...sides.slice(round % 3), ...sides.slice(0, round % 3)];
        for (const side of order) runs[side].push(await measure(side, urls[side], expected));
      }
      lines.push({ label, runs });
    }

    // ------------------------------------------------------------------ report
    const speed = (runs: Run[]) => median(runs.map((r) => mbps(r.bytes, r.ms)));
    const cpuPerGb = (runs: Run[]) => median(runs.map((r) => r.cpu / (r.bytes / 1024 ** 3)));
    console.log('');
    console.log(`downloads, ${sizeMb} MB file, ${rounds} round${rounds === 1 ? '' : 's'} (median, after 1 warm-up), MB = 2^20 bytes, files on disk`);
    console.log(await machineLine());
    console.log(`servers: the candidate, raw Node (${process.version}) and ${nginxName} (1 worker, sendfile on), each its own process; one client (this process) on loopback`);
    console.log('');
    for (const { label, runs } of lines) {
      const c = speed(runs.candidate);
      const n = speed(runs.node);
      const x = speed(runs.nginx);
      console.log(
        `${label.padEnd(20)} ${c.toFixed(0).padStart(5)} MB/s   raw Node ${n.toFixed(0).padStart(5)} MB/s   nginx ${x.toFixed(0).padStart(5)} MB/s   ` +
          `/dl÷Node ${(c / n).toFixed(2)}   /dl÷nginx ${(c / x).toFixed(2)}   server peak RSS ${mb(Math.max(...runs.candidate.map((r) => r.peakRss)))} MB`,
      );
      const [cc, nc, xc] = [cpuPerGb(runs.candidate), cpuPerGb(runs.node), cpuPerGb(runs.nginx)];
      // A baseline whose CPU time stayed below the clock's tick (nginx with sendfile, on a small file) has no ratio.
      const over = (base: number, digits: number) => (base > 0 ? (cc / base).toFixed(digits) : 'n/a (baseline used under 10 ms)');
      console.log(
        `${''.padEnd(20)} CPU s per GB sent: server ${cc.toFixed(2)}   raw Node ${nc.toFixed(2)}   nginx ${xc.toFixed(2)}   /dl÷Node ${over(nc, 2)}   /dl÷nginx ${over(xc, 1)}`,
      );
    }
    console.log('');
    console.log('each run in MB/s (candidate | raw Node | nginx):');
    for (const { label, runs } of lines) {
      const each = (r: Run[]) => r.map((x) => mbps(x.bytes, x.ms).toFixed(0)).join(' ');
      console.log(`  ${label.padEnd(20)} ${each(runs.candidate)} | ${each(runs.node)} | ${each(runs.nginx)}`);
    }
    console.log(`server RSS idle before the first measurement: ${mb(idleRss)} MB (the server process alone; PostgreSQL apart)`);
    await printServerErrors(running.logFile);
  } finally {
    await cleanup();
  }
}

runMain(main);
