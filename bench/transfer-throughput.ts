/**
 * `npm run bench`: transfer throughput of a real server, side by side with a bare Node baseline.
 *
 * One process runs the server (embedded PostgreSQL unless DATABASE_URL is set), a bare node:http
 * baseline server and the client, all on 127.0.0.1. Each round runs the candidate and its baseline
 * back to back (the order flips from round to round); each line reports the median of the per-round
 * ratios candidate/baseline with their spread (support.ts, pairedRounds). Bytes always stream: the test files are written to disk in 1 MiB chunks
 * and every request and response body is piped, never collected.
 *
 *   BENCH_MB      size of the big test file in MB (1 MB = 2^20 bytes), default 512
 *   BENCH_ROUNDS  paired rounds per line, default 7
 *   BENCH_LINES   the lines to measure, default upload,file,zip
 *
 * The peak RSS of the process (server + client, sampled every 50 ms) during each run is reported,
 * not asserted. See bench/README.md for what each line measures.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { RunningServer } from '../src/server/assembly/runtime.js';
import { startTestS3, type TestS3 } from '../src/server/test/s3-server.js';
import { Upload } from '@aws-sdk/lib-storage';
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
  startBenchServer,
  streamDownload,
  tusCreate,
  writeRandomFile,
  type PairedRound,
  type Timed,
} from './support.js';

/** Read size of the server's download streams (DiskStorage.read); the baseline reads the same way. */
const READ_CHUNK = 256 * 1024;
const SMALL_FILE_SIZES = [MB, 64 * 1024, 1024];

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/** Flushes a written file to disk (outside the timed window), so the next run starts with no writeback pending. */
async function syncFile(file: string): Promise<void> {
  const fh = await fsp.open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Peak RSS of this process while a run is going, sampled every 50 ms. */
function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage.rss());
  };
}

interface Run {
  ms: number;
  bytes: number;
  peakRss: number;
}

async function measured(fn: () => Promise<{ ms: number; bytes: number }>): Promise<Run> {
  const stop = rssSampler();
  try {
    const r = await fn();
    return { ...r, peakRss: stop() };
  } catch (err) {
    stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// The client: the same code talks to the candidate and to the baseline
// ---------------------------------------------------------------------------------------------

/**
 * Streams a file from disk as the body of one request (`Content-Length` set) and waits for the
 * response. Timed from the moment the request is issued to the response's arrival.
 */
function sendFile(url: string, method: string, headers: Record<string, string>, file: string, size: number) {
  return new Promise<{ ms: number; bytes: number; status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, agent: false, headers: { ...headers, 'Content-Length': String(size) } });
    req.on('error', reject);
    req.on('response', (res) => {
      const ms = performance.now() - started;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (body.length < 4096) body += d;
      });
      res.on('error', reject);
      res.on('end', () => resolve({ ms, bytes: size, status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    pipeline(fs.createReadStream(file), req).catch(reject);
  });
}

// ---------------------------------------------------------------------------------------------
// The baseline: a bare node:http server in this process
// ---------------------------------------------------------------------------------------------

interface Baseline {
  /** `PATCH <url>/upload/<sink>/<name>` stores the body with that sink; `GET <url>/serve/<name>` answers with what `serve` set. */
  url: string;
  /** Makes `GET /serve/<name>` answer with these stored files back to back, then `padding` zero bytes. */
  serve(name: string, files: StoredSource[], padding?: number): Promise<void>;
  close(): Promise<void>;
}

/** A file as the baseline reads it: from disk, or from the bucket the server uses. */
interface StoredSource {
  size(): Promise<number>;
  open(): Readable;
}

/** Where the baseline writes an upload: a file on the same disk, or one PutObject into the same bucket. */
type BaselineSink = (name: string, body: http.IncomingMessage, length: number) => Promise<void>;

const diskSink = (uploadDir: string): BaselineSink => (name, body) => pipeline(body, fs.createWriteStream(path.join(uploadDir, name)));

async function startBaseline(sinks: Record<string, BaselineSink>): Promise<Baseline> {
  const served = new Map<string, { files: StoredSource[]; padding: number; size: number }>();
  const server = http.createServer((req, res) => {
    const fail = (err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
      else res.destroy();
    };
    const upload = /^\/upload\/([\w-]+)\/([\w-]+)$/.exec(req.url ?? '');
    const sink = upload ? sinks[upload[1]!] : undefined;
    if (upload && sink && (req.method === 'PATCH' || req.method === 'PUT')) {
      // Request body → storage, then 204: what any upload endpoint has to do at the least.
      sink(upload[2]!, req, Number(req.headers['content-length'])).then(() => res.writeHead(204).end(), fail);
      return;
    }
    const entry = /^\/serve\/([\w-]+)$/.exec(req.url ?? '');
    const what = entry && req.method === 'GET' ? served.get(entry[1]!) : undefined;
    if (!what) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(what.size) });
    // Plain .pipe() per file (pipeline with `end: false` would pile listeners up on the response).
    const next = (i: number): void => {
      if (i === what.files.length) {
        res.end(what.padding > 0 ? Buffer.alloc(what.padding) : undefined);
        return;
      }
      const source = what.files[i]!.open();
      source.once('error', fail);
      source.once('end', () => next(i + 1));
      source.pipe(res, { end: false });
    };
    next(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async serve(name, files, padding = 0) {
      const sizes = await Promise.all(files.map((f) => f.size()));
      served.set(name, { files, padding, size: sizes.reduce((a, b) => a + b, 0) + padding });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The candidate: the real server, driven through its API
// ---------------------------------------------------------------------------------------------

interface CreatedTransfer {
  id: string;
  tusEndpoint: string;
  files: { id: string; name: string; size: number; uploadToken: string }[];
}

interface DownloadLinks {
  files: { fileId: string; url: string; sizeBytes: number }[];
  zip: { url: string; sizeBytes: number };
}

/** One tus PATCH with the whole file, streamed from disk by the shared client code. */
async function tusPatch(uploadUrl: string, token: string, file: string, size: number) {
  const r = await sendFile(
    uploadUrl,
    'PATCH',
    { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'x-service-upload-token': token },
    file,
    size,
  );
  if (r.status !== 204 || r.headers['upload-offset'] !== String(size)) {
    throw new Error(`tus PATCH: ${r.status}, Upload-Offset ${String(r.headers['upload-offset'])}: ${r.body}`);
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

interface Line {
  label: string;
  /** One or two baselines; each round runs the candidate beside every one of them (see pairedRounds). */
  baselineLabels: string[];
  rounds: PairedRound<Run>[];
}

/** One untimed warm-up round, then `rounds` paired rounds (candidate and baseline back to back, order flipping). */
async function measureLine(
  rounds: number,
  label: string,
  candidate: () => Promise<Timed>,
  baselines: { label: string; run: () => Promise<Timed> }[],
): Promise<Line> {
  console.log(`measuring ${label}, 1 warm-up + ${rounds} paired round(s)…   (${loadAverage()})`);
  const paired = await pairedRounds(
    rounds,
    () => measured(candidate),
    baselines.map((b) => () => measured(b.run)),
  );
  return { label, baselineLabels: baselines.map((b) => b.label), rounds: paired };
}

function report(sizeMb: number, rounds: number, lines: Line[], idleRss: number, loadBefore: string) {
  const fmt = (n: number) => n.toFixed(0).padStart(6);
  const speeds = (runs: Run[]) => runs.map((r) => mbps(r.bytes, r.ms));
  const peak = (runs: Run[]) => Math.max(...runs.map((r) => r.peakRss)) / MB;
  console.log('');
  console.log(
    `transfer throughput, ${sizeMb} MB file, ${rounds} paired round${rounds === 1 ? '' : 's'} (after 1 warm-up), MB = 2^20 bytes, files ${process.env.BENCH_S3 === '1' ? 'in S3 (s3rver on loopback)' : 'on disk'}`,
  );
  console.log(`Node ${process.version}, ${os.platform()}-${os.arch()}, ${os.availableParallelism()} CPUs, client and servers on loopback 127.0.0.1`);
  console.log(`${loadBefore} at the start, ${loadAverage()} at the end`);
  console.log('ratio = median over the rounds of (candidate MB/s ÷ baseline MB/s in the same round); IQR and min–max of those ratios');
  console.log('');
  const w = Math.max(...lines.map((l) => l.label.length));
  const bw = Math.max(...lines.flatMap((l) => l.baselineLabels.map((b) => b.length)));
  for (const l of lines) {
    const c = median(speeds(l.rounds.map((r) => r.candidate)));
    l.baselineLabels.forEach((label, i) => {
      const b = median(speeds(l.rounds.map((r) => r.baselines[i]!)));
      const head = i === 0 ? `${l.label.padEnd(w)}  ${fmt(c)} MB/s` : `${''.padEnd(w)}  ${''.padStart(6)}     `;
      console.log(
        `${head}   vs ${label.padEnd(bw)} ${fmt(b)} MB/s   ratio ${formatRatio(pairedSummary(l.rounds, i))}` +
          `   peak RSS ${peak(l.rounds.map((r) => r.candidate)).toFixed(0)} MB (baseline ${peak(l.rounds.map((r) => r.baselines[i]!)).toFixed(0)} MB)`,
      );
    });
  }
  console.log('');
  console.log('each round: candidate MB/s | baseline MB/s = ratio (the side that ran first is marked *):');
  for (const l of lines) {
    console.log(`  ${l.label}`);
    l.baselineLabels.forEach((label, i) => {
      const each = l.rounds
        .map((r) => {
          const cFirst = r.order.indexOf('c') < r.order.indexOf(i);
          return `${mbps(r.candidate.bytes, r.candidate.ms).toFixed(0)}${cFirst ? '*' : ''}|${mbps(r.baselines[i]!.bytes, r.baselines[i]!.ms).toFixed(0)}${cFirst ? '' : '*'}=${r.ratios[i]!.toFixed(2)}`;
        })
        .join('  ');
      console.log(`    vs ${label}: ${each}`);
    });
  }
  console.log('');
  console.log(
    `peak RSS is of the whole process (server, baseline server and client) during each run, sampled every 50 ms; ${(idleRss / MB).toFixed(0)} MB before the first measurement.`,
  );
}

async function main() {
  const sizeMb = positiveIntEnv('BENCH_MB', 512);
  const rounds = positiveIntEnv('BENCH_ROUNDS', DEFAULT_ROUNDS);
  const only = new Set((process.env.BENCH_LINES ?? 'upload,file,zip').split(',').map((l) => l.trim()));
  for (const l of only) if (!['upload', 'file', 'zip'].includes(l)) throw new Error(`BENCH_LINES: unknown line ${JSON.stringify(l)} (upload, file, zip)`);
  const size = sizeMb * MB;
  const smallTotal = SMALL_FILE_SIZES.reduce((a, b) => a + b, 0);

  // The temp dir is DATA_DIR itself (the embedded PostgreSQL's user must be able to reach it); the
  // test files and the baseline's uploads live under it too, on the same filesystem as the server's.
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-'));
  const workDir = path.join(dataDir, 'bench');
  const baselineUploads = path.join(workDir, 'baseline-uploads');
  let server: RunningServer | null = null;
  let baseline: Baseline | null = null;
  // BENCH_S3=1: the server's files in an S3-compatible server on loopback, and the baseline's too.
  const s3: TestS3 | null = process.env.BENCH_S3 === '1' ? await startTestS3() : null;
  // Stops both servers (and with them the embedded PostgreSQL, which runs in its own process group
  // and would outlive a Ctrl-C) and removes the temp dir: at the end, on error and on a signal.
  const cleanup = cleanupOnExit(async () => {
    await baseline?.close().catch((err: unknown) => console.error('could not stop the baseline server:', err));
    await server?.close().catch((err: unknown) => console.error('could not stop the server:', err));
    await s3?.stop().catch((err: unknown) => console.error('could not stop the S3 server:', err));
    await fsp.rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.error(`could not remove ${dataDir}:`, err));
  });

  try {
    await fsp.mkdir(baselineUploads, { recursive: true });
    const bigFile = path.join(workDir, 'big.bin');
    console.log(`writing a ${sizeMb} MB test file…`);
    await writeRandomFile(bigFile, size);
    const smallFiles = SMALL_FILE_SIZES.map((_, i) => path.join(workDir, `small-${i}.bin`));
    for (const [i, f] of smallFiles.entries()) await writeRandomFile(f, SMALL_FILE_SIZES[i]!);

    console.log('starting the server…');
    const started = await startBenchServer(
      dataDir,
      { transferBytes: Math.max(5 * 1000 ** 3, 4 * (size + smallTotal)), monthBytes: Math.max(10 * 1000 ** 3, 4 * rounds * (size + smallTotal)) },
      s3
        ? {
            S3_ENDPOINT: s3.endpoint,
            S3_BUCKET: s3.bucket,
            S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
            S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
            S3_FORCE_PATH_STYLE: '1',
            // The upload settings an operator may set, passed on (S3_UPLOAD_MEMORY_MB below the part size: temporary files, as before).
            ...Object.fromEntries(['S3_PART_SIZE_MB', 'S3_UPLOAD_QUEUE_SIZE', 'S3_UPLOAD_MEMORY_MB'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : []))),
          }
        : {},
    );
    server = started.server;
    const running = started.server;
    const bucket = s3 ? new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials, requestChecksumCalculation: 'WHEN_REQUIRED' }) : null;
    const putObjectSink: BaselineSink = async (name, body, length) => {
      await bucket!.send(new PutObjectCommand({ Bucket: s3!.bucket, Key: `baseline-${name}`, Body: body, ContentLength: length }));
    };
    // What a user would pick instead of tus: the SDK's own multipart upload, with the part size the
    // server uses (S3_PART_SIZE_MB, default 64) and the server's queue of parts in flight per upload.
    const partSize = running.services.config.S3_PART_SIZE_MB * MB;
    const queueSize = running.services.config.S3_UPLOAD_QUEUE_SIZE;
    const multipartSink: BaselineSink = async (name, body) => {
      await new Upload({ client: bucket!, params: { Bucket: s3!.bucket, Key: `baseline-mp-${name}`, Body: body }, partSize, queueSize, leavePartsOnError: false }).done();
    };
    baseline = await startBaseline(s3 ? { put: putObjectSink, multipart: multipartSink } : { disk: diskSink(baselineUploads) });
    const secret = started.apiKey;
    const api = apiClient(running, secret);

    const stored = (fileId: string) => path.join(dataDir, 'files', fileId);
    const { storage } = running.services;
    /** The file the server stored, read the way a bare handler would: from disk, or a GetObject of the same object. */
    const storedSource = (fileId: string): StoredSource =>
      s3
        ? { size: async () => (await storage.size(fileId)) ?? 0, open: () => storage.read(fileId) }
        : { size: async () => (await fsp.stat(stored(fileId))).size, open: () => fs.createReadStream(stored(fileId), { highWaterMark: READ_CHUNK }) };
    const smallEntries = SMALL_FILE_SIZES.map((s, i) => ({ name: `small-${i}.bin`, file: smallFiles[i]!, size: s }));

    /**
     * Creates a transfer with these files, uploads each (tus creation, then one PATCH) and sends it.
     * Returns the timing of the first file's PATCH, which is flushed to disk afterwards, untimed.
     */
    const uploadTransfer = async (files: { name: string; file: string; size: number }[]) => {
      const t = await api<CreatedTransfer>('POST', '/api/v1/transfers', {
        title: 'benchmark',
        files: files.map((f) => ({ name: f.name, size: f.size })),
      });
      let first: { ms: number; bytes: number } | null = null;
      for (const [i, target] of t.files.entries()) {
        const { file, size: fileSize } = files[i]!;
        const r = await tusPatch(await tusCreate(t.tusEndpoint, target.uploadToken, fileSize), target.uploadToken, file, fileSize);
        if (i === 0) {
          first = { ms: r.ms, bytes: r.bytes };
          if (!s3) await syncFile(stored(target.id));
        }
      }
      await api('POST', `/api/v1/transfers/${t.id}/finalize`, {});
      return { id: t.id, first: first! };
    };
    let baselineUploadCount = 0;
    const baselineUpload = async (sink: string, file: string, fileSize: number) => {
      const name = `upload-${baselineUploadCount++}`;
      const r = await sendFile(`${baseline!.url}/upload/${sink}/${name}`, 'PATCH', { 'Content-Type': 'application/offset+octet-stream' }, file, fileSize);
      if (r.status !== 204) throw new Error(`baseline upload: ${r.status} ${r.body}`);
      if (!s3) {
        await syncFile(path.join(baselineUploads, name));
        await fsp.rm(path.join(baselineUploads, name));
      }
      return { ms: r.ms, bytes: r.bytes };
    };

    const idleRss = process.memoryUsage.rss();

    const loadBefore = loadAverage();
    // 1. Upload. A fresh transfer per round (the big file and the three small ones); only the big
    // file's PATCH is timed. The small files follow so that the transfer can be sent.
    const sent: string[] = [];
    const lines: Line[] = [];
    const uploadLine = !only.has('upload') ? null : await measureLine(
      rounds,
      'upload (tus PATCH)',
      async () => {
        const t = await uploadTransfer([{ name: 'big.bin', file: bigFile, size }, ...smallEntries]);
        sent.push(t.id);
        return t.first;
      },
      s3
        ? [
            { label: `bare handler → lib-storage Upload (${partSize / MB} MiB parts, queue ${queueSize})`, run: () => baselineUpload('multipart', bigFile, size) },
            { label: 'bare handler → one PutObject', run: () => baselineUpload('put', bigFile, size) },
          ]
        : [{ label: 'bare handler → disk', run: () => baselineUpload('disk', bigFile, size) }],
    );

    if (uploadLine) lines.push(uploadLine);
    else sent.push((await uploadTransfer([{ name: 'big.bin', file: bigFile, size }, ...smallEntries])).id);

    // 2 and 3. Downloads, from the first sent transfer. The baseline reads the very files the
    // server stored (same bytes, same disk, same page cache).
    const transferId = sent[0]!;
    const links = await api<DownloadLinks>('GET', `/api/v1/transfers/${transferId}/download-links`);
    const bigLink = links.files.find((f) => f.sizeBytes === size);
    if (!bigLink) throw new Error('download-links has no entry for the big file');
    const storedFiles = links.files.map((f) => storedSource(f.fileId));
    const filesTotal = links.files.reduce((s, f) => s + f.sizeBytes, 0);
    if (links.files.length !== 1 + SMALL_FILE_SIZES.length || filesTotal !== size + smallTotal) throw new Error('unexpected files in the transfer');
    await baseline.serve('file', [storedSource(bigLink.fileId)]);
    // The zip's headers and central directory are a few hundred bytes; the baseline pads with zeros
    // so that both sides move exactly the same number of bytes.
    await baseline.serve('zip', storedFiles, links.zip.sizeBytes - filesTotal);

    if (only.has('file')) {
      lines.push(
        await measureLine(rounds, 'file download (/dl)', () => streamDownload(bigLink.url, size), [
          { label: s3 ? 'bare handler ← GetObject' : 'bare handler ← disk', run: () => streamDownload(`${baseline!.url}/serve/file`, size) },
        ]),
      );
    }
    if (only.has('zip')) {
      lines.push(
        await measureLine(rounds, 'zip download (/dl)', () => streamDownload(links.zip.url, links.zip.sizeBytes), [
          { label: 'same files back to back', run: () => streamDownload(`${baseline!.url}/serve/zip`, links.zip.sizeBytes) },
        ]),
      );
    }

    report(sizeMb, rounds, lines, idleRss, loadBefore);
  } finally {
    await cleanup();
  }
}

runMain(main);
