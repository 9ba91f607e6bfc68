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
 *   BENCH_ROUNDS  paired rounds per line, default 7
 *
 * Each line runs one untimed warm-up of every side, then the rounds. In a round the candidate runs
 * between the two baselines, back to back (raw Node, /dl, nginx, then nginx, /dl, raw Node, …), and
 * each ratio is taken within the round; the report gives the median of those per-round ratios with
 * their spread. The server's RSS is sampled every 50 ms during its runs; every side's CPU time is
 * read from /proc, as seconds per GB sent: on a machine shared with other work that figure holds
 * steady where MB/s does not.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { nginxVersion, startNginx, startRawNode, type BaselineServer } from './baselines.js';
import { cpuSeconds, createKey, machineLine, mb, printServerErrors, rssOf, type ServerProcess, signUp, startServerProcess } from './server-process.js';
import {
  apiClient,
  cleanupOnExit,
  DEFAULT_ROUNDS,
  formatRatio,
  loadAverage,
  MB,
  mbps,
  median,
  pairedRounds,
  pairedSummary,
  positiveIntEnv,
  runMain,
  streamDownload,
  summarizeRatios,
  tusCreate,
  tusPatchFile,
  writeRandomFile,
  type PairedRound,
} from './support.js';

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
  firstByteMs: number;
  bytes: number;
  cpu: number;
  peakRss: number;
}

async function main() {
  const sizeMb = positiveIntEnv('BENCH_MB', 256);
  const rounds = positiveIntEnv('BENCH_ROUNDS', DEFAULT_ROUNDS);
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

    const loadBefore = loadAverage();
    const lines: { label: string; rounds: PairedRound<Run>[] }[] = [];
    for (const [label, urls, expected] of [
      ['file download (/dl)', { candidate: bigLink.url, node: `${node.url}/file`, nginx: `${nginx.url}/file` }, size],
      ['zip download (/dl)', { candidate: links.zip.url, node: `${node.url}/zip`, nginx: `${nginx.url}/zip` }, links.zip.sizeBytes],
    ] as const) {
      console.log(`measuring ${label}, 1 warm-up + ${rounds} paired round(s)…   (${loadAverage()})`);
      const paired = await pairedRounds(
        rounds,
        () => measure('candidate', urls.candidate, expected),
        [() => measure('node', urls.node, expected), () => measure('nginx', urls.nginx, expected)],
      );
      lines.push({ label, rounds: paired });
    }

    // ------------------------------------------------------------------ report
    const speed = (runs: Run[]) => median(runs.map((r) => mbps(r.bytes, r.ms)));
    const cpuPerGb = (r: Run) => r.cpu / (r.bytes / 1024 ** 3);
    const sides = (p: PairedRound<Run>[]) => ({ candidate: p.map((r) => r.candidate), node: p.map((r) => r.baselines[0]!), nginx: p.map((r) => r.baselines[1]!) });
    console.log('');
    console.log(`downloads, ${sizeMb} MB file, ${rounds} paired round${rounds === 1 ? '' : 's'} (after 1 warm-up), MB = 2^20 bytes, files on disk`);
    console.log(await machineLine());
    console.log(`servers: the candidate, raw Node (${process.version}) and ${nginxName} (1 worker, sendfile on), each its own process; one client (this process) on loopback`);
    console.log(`${loadBefore} at the start, ${loadAverage()} at the end`);
    console.log('ratios: median over the rounds of the ratio within each round (IQR, min–max of those ratios); MB/s: median of each side');
    console.log('');
    for (const { label, rounds: paired } of lines) {
      const runs = sides(paired);
      console.log(
        `${label.padEnd(20)} ${speed(runs.candidate).toFixed(0).padStart(5)} MB/s   raw Node ${speed(runs.node).toFixed(0).padStart(5)} MB/s   nginx ${speed(runs.nginx).toFixed(0).padStart(5)} MB/s   ` +
          `server peak RSS ${mb(Math.max(...runs.candidate.map((r) => r.peakRss)))} MB   ` +
          `time to response head (median ms): /dl ${median(runs.candidate.map((r) => r.firstByteMs)).toFixed(1)}, raw Node ${median(runs.node.map((r) => r.firstByteMs)).toFixed(1)}, nginx ${median(runs.nginx.map((r) => r.firstByteMs)).toFixed(1)}`,
      );
      console.log(`${''.padEnd(20)} MB/s  /dl÷Node ${formatRatio(pairedSummary(paired, 0))}   /dl÷nginx ${formatRatio(pairedSummary(paired, 1))}`);
      // CPU s per GB, the same way: each round's candidate over that round's baseline. A baseline whose
      // CPU time stayed below the clock's tick (nginx with sendfile, on a small file) has no ratio.
      const cpuRatio = (i: number) => {
        const ratios = paired.filter((r) => r.baselines[i]!.cpu > 0).map((r) => cpuPerGb(r.candidate) / cpuPerGb(r.baselines[i]!));
        return ratios.length > 0 ? formatRatio(summarizeRatios(ratios)) : 'n/a (baseline used under 10 ms)';
      };
      const cpuMedian = (rs: Run[]) => median(rs.map(cpuPerGb)).toFixed(2);
      console.log(
        `${''.padEnd(20)} CPU s per GB sent: server ${cpuMedian(runs.candidate)}   raw Node ${cpuMedian(runs.node)}   nginx ${cpuMedian(runs.nginx)}   /dl÷Node ${cpuRatio(0)}   /dl÷nginx ${cpuRatio(1)}`,
      );
    }
    console.log('');
    console.log('each round in MB/s: raw Node / /dl / nginx, in the order they ran:');
    for (const { label, rounds: paired } of lines) {
      const each = paired
        .map((r) => r.order.map((side) => (side === 'c' ? `[${mbps(r.candidate.bytes, r.candidate.ms).toFixed(0)}]` : mbps(r.baselines[side]!.bytes, r.baselines[side]!.ms).toFixed(0))).join(' '))
        .join('  |  ');
      console.log(`  ${label.padEnd(20)} ${each}`);
    }
    console.log('  ([…] is /dl; the others are raw Node and nginx: raw Node first in odd rounds, nginx first in even ones)');
    console.log(`server RSS idle before the first measurement: ${mb(idleRss)} MB (the server process alone; PostgreSQL apart)`);
    await printServerErrors(running.logFile);
  } finally {
    await cleanup();
  }
}

runMain(main);
