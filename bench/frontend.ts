/**
 * `npm run bench:frontend`: what the dashboard costs a browser.
 *
 * 1. First-load JS per route, from a production build of its own (`vite build --manifest` into a
 *    temp dir, so a concurrent build of dist/app cannot interfere): the entry and everything
 *    index.html preloads (what scripts/check-bundle-budget.mjs counts, and it is run on the same
 *    build), plus the route's lazily loaded chunks and those of its layout routes, with their static
 *    imports, each counted once, as sent (the precompressed brotli copy; gzip -9 where there is
 *    none).
 * 2. Lighthouse LIGHTHOUSE_VERSION (installed on demand into .cache/lighthouse, not a project
 *    dependency; it runs on Node 20) with Debian's Chromium against the real server (a child
 *    process serving that build): performance and accessibility on the sign-in page, the transfers
 *    list (signed in: the session cookie from a sign-in POST, sent as an extra header) and the three
 *    public pages people outside a workspace open: a recipient page (the public link of a sent
 *    transfer of eight photos with their previews, a PDF and a video with theirs), a public collection's link and
 *    an upload request's page; mobile and desktop.
 *
 *   BENCH_LH_RUNS          Lighthouse runs per page and form factor (median shown), default 3
 *   BENCH_FORM_FACTORS     mobile,desktop (default) or one of them
 *   BENCH_LH_DIR           keep Lighthouse's JSON reports in this directory (default: a temp dir, removed)
 *   BENCH_PAGES            only these Lighthouse pages (comma-separated names as printed), default all
 *   CHROME_PATH            the Chromium to use, default /usr/bin/chromium (installed when missing, as root)
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { createKey, machineLine, printServerErrors, repoRoot, type ServerProcess, signIn, signUp, startServerProcess } from './server-process.js';
import { apiClient, cleanupOnExit, median, positiveIntEnv, runMain, tusCreate } from './support.js';
import { pdfOf, testVideo } from '../src/server/test/media-files.js';

const LIGHTHOUSE_VERSION = '12.8.2';
const lighthouseDir = path.join(repoRoot, '.cache/lighthouse');
const lighthouseCli = path.join(lighthouseDir, 'node_modules/lighthouse/cli/index.js');
const routesDir = path.join(repoRoot, 'src/app/routes');

// ---------------------------------------------------------------------------------------------
// First-load JS per route
// ---------------------------------------------------------------------------------------------

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/**
 * Bytes as a browser receives the asset: its precompressed brotli copy, or gzip -9 where there is
 * none (as check-bundle-budget.mjs counts). With `gzip`, the precompressed gzip copy: what Chromium
 * gets over plain http, where it does not ask for brotli (as in the Lighthouse runs here).
 */
function sentSize(outDir: string, file: string, encoding: 'br' | 'gzip' = 'br'): number {
  const precompressed = path.join(outDir, `${file}.${encoding === 'br' ? 'br' : 'gz'}`);
  return fs.existsSync(precompressed) ? fs.statSync(precompressed).size : gzipSync(fs.readFileSync(path.join(outDir, file)), { level: 9 }).length;
}

/** The chunk and everything it imports statically, as manifest keys. */
function withStaticImports(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

/** `_authed/transfers/$transferId.tsx` → `/transfers/$transferId`: pathless layouts (`_x`) and `index` drop out, dots are slashes. */
function urlOf(routeFile: string): string {
  const segments = routeFile.replace(/\.tsx$/, '').split(/[/.]/);
  const url = segments.filter((s) => !s.startsWith('_') && s !== 'index').join('/');
  return `/${url}`;
}

/** The layout routes above a route file that exist: `a.tsx`, `a/b.tsx`, and for `a/b.c.tsx` also `a/b.tsx`. */
function layoutsOf(routeFile: string): string[] {
  const parts = routeFile.replace(/\.tsx$/, '').split('/');
  const candidates: string[] = [];
  for (let i = 1; i < parts.length; i++) candidates.push(`${parts.slice(0, i).join('/')}.tsx`);
  const last = parts.at(-1)!.split('.');
  for (let i = 1; i < last.length; i++) candidates.push(`${[...parts.slice(0, -1), last.slice(0, i).join('.')].join('/')}.tsx`);
  return candidates.filter((c) => c !== routeFile && fs.existsSync(path.join(routesDir, c)));
}

/** Route files that are pages: not the root, not a layout (a file with a folder of the same name). */
function pageRouteFiles(dir = routesDir, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      if (e.isDirectory()) return pageRouteFiles(path.join(dir, e.name), `${prefix}${e.name}/`);
      const layout = fs.existsSync(path.join(dir, e.name.replace(/\.tsx$/, '')));
      return e.name.endsWith('.tsx') && e.name !== '__root.tsx' && !layout ? [`${prefix}${e.name}`] : [];
    })
    .sort();
}

interface RouteWeight {
  file: string;
  url: string;
  jsBytes: number;
  jsGzipBytes: number;
  routeJsBytes: number;
  chunks: number;
}

function firstLoadPerRoute(outDir: string): { entryJs: number; entryCss: number; entryChunks: number; routes: RouteWeight[] } {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = withStaticImports(manifest, ['index.html']);
  const sum = (files: Iterable<string>, encoding: 'br' | 'gzip' = 'br') => [...files].reduce((s, f) => s + sentSize(outDir, f, encoding), 0);
  const cssOf = (keys: Iterable<string>) => new Set([...keys].flatMap((k) => manifest[k]!.css ?? []));
  const entryFiles = new Set([...entry].map((k) => manifest[k]!.file));
  const entryCss = cssOf(entry);
  const routes: RouteWeight[] = [];
  for (const file of pageRouteFiles()) {
    // What a direct visit loads: the route's split chunks (not its error component) and its layouts'.
    const splits = [...layoutsOf(file), file].flatMap((f) =>
      Object.keys(manifest).filter((k) => k.startsWith(`src/app/routes/${f}?tsr-split=`) && !/errorComponent|notFoundComponent/.test(k)),
    );
    const all = withStaticImports(manifest, ['index.html', ...splits]);
    const jsFiles = new Set([...all].map((k) => manifest[k]!.file));
    const extra = [...jsFiles].filter((f) => !entryFiles.has(f));
    routes.push({ file, url: urlOf(file), jsBytes: sum(jsFiles), jsGzipBytes: sum(jsFiles, 'gzip'), routeJsBytes: sum(extra), chunks: jsFiles.size });
  }
  return { entryJs: sum(entryFiles), entryCss: sum(entryCss), entryChunks: entryFiles.size, routes };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse
// ---------------------------------------------------------------------------------------------

function ensureLighthouse(): void {
  const pkg = path.join(lighthouseDir, 'node_modules/lighthouse/package.json');
  const installed = fs.existsSync(pkg) ? (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version : null;
  if (installed === LIGHTHOUSE_VERSION) return;
  console.log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${path.relative(repoRoot, lighthouseDir)}…`);
  fs.mkdirSync(lighthouseDir, { recursive: true });
  execFileSync('npm', ['install', '--prefix', lighthouseDir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `lighthouse@${LIGHTHOUSE_VERSION}`], {
    stdio: 'inherit',
  });
}

function ensureChromium(): string {
  const wanted = process.env.CHROME_PATH || '/usr/bin/chromium';
  if (fs.existsSync(wanted)) return wanted;
  if (process.getuid?.() !== 0) throw new Error(`Lighthouse needs Chromium at ${wanted}. Install it with: sudo apt-get install chromium (or set CHROME_PATH)`);
  console.log("installing Debian's chromium…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'ignore', env });
  return wanted;
}

interface LighthouseRun {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  scriptBytes: number;
  finalUrl: string;
  failedA11y: string[];
  /** Lighthouse's performance opportunities with the time they would save, largest first. */
  opportunities: { id: string; ms: number }[];
}

interface Lhr {
  finalDisplayedUrl: string;
  runtimeError?: { message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    { score: number | null; numericValue?: number; title: string; details?: { type?: string; overallSavingsMs?: number; items?: { resourceType?: string; transferSize?: number }[] } }
  >;
}

function runLighthouse(chrome: string, url: string, formFactor: 'mobile' | 'desktop', outFile: string, headers?: Record<string, string>): Promise<LighthouseRun> {
  const args = [
    lighthouseCli,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${outFile}`,
    '--only-categories=performance,accessibility',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync',
    ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
    ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: chrome }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited with ${code}: ${stderr.slice(-2000)}`));
      const lhr = JSON.parse(fs.readFileSync(outFile, 'utf8')) as Lhr;
      if (lhr.runtimeError) return reject(new Error(`lighthouse: ${lhr.runtimeError.message}`));
      const a = lhr.audits;
      const scripts = a['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script')?.transferSize ?? NaN;
      const failedA11y = lhr.categories.accessibility!.auditRefs
        .filter((r) => r.weight > 0 && a[r.id]?.score !== null && (a[r.id]?.score ?? 1) < 1)
        .map((r) => r.id);
      resolve({
        performance: Math.round((lhr.categories.performance!.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility!.score ?? 0) * 100),
        fcp: a['first-contentful-paint']!.numericValue!,
        lcp: a['largest-contentful-paint']!.numericValue!,
        tbt: a['total-blocking-time']!.numericValue!,
        cls: a['cumulative-layout-shift']!.numericValue!,
        scriptBytes: scripts,
        finalUrl: lhr.finalDisplayedUrl,
        failedA11y,
        opportunities: Object.entries(a)
          .filter(([, audit]) => audit.details?.type === 'opportunity' && (audit.details.overallSavingsMs ?? 0) >= 50)
          .map(([id, audit]) => ({ id, ms: audit.details!.overallSavingsMs! }))
          .sort((x, y) => y.ms - x.ms),
      });
    });
  });
}

let lighthouseRetries = 0;

/**
 * Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART, NO_FCP) and says to
 * run it again: up to two more attempts, counted in the report.
 */
async function lighthouseWithRetries(run: () => Promise<LighthouseRun>): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt === 3 || !/run Lighthouse again|NO_NAVSTART|NO_FCP|NO_LCP/i.test(String(err))) throw err;
      lighthouseRetries++;
      console.log(`  retrying: ${String(err).split('\n')[0]}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Seeding the public pages
// ---------------------------------------------------------------------------------------------

/** A photo-like JPEG (1200×900, a smooth gradient of its own colour): what a recipient page's previews are made from. */
async function benchPhoto(seed: number): Promise<Buffer> {
  const width = 1200;
  const height = 900;
  const pixels = Buffer.alloc(width * height * 3);
  const [r, g, b] = [(seed * 67) % 256, (seed * 131 + 80) % 256, (seed * 29 + 160) % 256];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      pixels[o] = (r + (x * 96) / width) & 255;
      pixels[o + 1] = (g + (y * 96) / height) & 255;
      pixels[o + 2] = (b + ((x + y) * 48) / (width + height)) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 82 }).toBuffer();
}

/** Waits until the worker has made every photo's preview, as the recipient and collection pages will show them. */
async function waitForPreviews(recipientUrl: string, collectionUrl: string, photos: number, recipientPreviews: number = photos): Promise<void> {
  const previews = async (url: string): Promise<number> => {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    const body = (await res.json()) as { files: { thumbnailUrl: string | null }[] };
    return body.files.filter((f) => f.thumbnailUrl !== null).length;
  };
  const api = (pageUrl: string, kind: 'transfers' | 'collections') => {
    const u = new URL(pageUrl);
    const slug = u.pathname.split('/').at(-1)!;
    return `${u.origin}/api/public/${kind}/${slug}${kind === 'collections' ? '/files' : ''}`;
  };
  for (const deadline = Date.now() + 120_000; ; ) {
    if ((await previews(api(recipientUrl, 'transfers'))) >= recipientPreviews && (await previews(api(collectionUrl, 'collections'))) >= photos) return;
    if (Date.now() > deadline) {
      throw new Error(`the previews were not made within 120 s: ${await previews(api(recipientUrl, 'transfers'))} of ${recipientPreviews} on the recipient page, ${await previews(api(collectionUrl, 'collections'))} of ${photos} in the collection`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

async function main() {
  const runs = positiveIntEnv('BENCH_LH_RUNS', 3);
  const formFactors = (process.env.BENCH_FORM_FACTORS || 'mobile,desktop').split(',').map((s) => s.trim()) as ('mobile' | 'desktop')[];
  if (formFactors.some((f) => f !== 'mobile' && f !== 'desktop')) throw new Error('BENCH_FORM_FACTORS: mobile, desktop or both');

  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-frontend-'));
  const outDir = path.join(workDir, 'app');
  // DATA_DIR is a temp dir of its own: the embedded PostgreSQL's user must be able to reach it.
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-frontend-data-'));
  let server: ServerProcess | null = null;
  const cleanup = cleanupOnExit(async () => {
    await server?.stop().catch((err: unknown) => console.error('could not stop the server:', err));
    if (process.env.BENCH_KEEP_DATA) console.log(`kept ${dataDir}`);
    else for (const dir of [workDir, dataDir]) await fsp.rm(dir, { recursive: true, force: true }).catch((err: unknown) => console.error(`could not remove ${dir}:`, err));
  });

  try {
    console.log('building the dashboard (vite build --manifest) into a temp dir…');
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    // The project's budget check on this very build: its total is the entry row below.
    const budget = spawn(process.execPath, [path.join(repoRoot, 'scripts/check-bundle-budget.mjs'), outDir], { cwd: repoRoot });
    let budgetOut = '';
    budget.stdout.on('data', (d: Buffer) => (budgetOut += d.toString()));
    budget.stderr.on('data', (d: Buffer) => (budgetOut += d.toString()));
    await new Promise((r) => budget.on('exit', r));
    const weights = firstLoadPerRoute(outDir);

    ensureLighthouse();
    const chrome = ensureChromium();
    // (Debian's wrapper script complains about the memory size on stderr; the version is on stdout.)
    const chromeVersion = execFileSync(chrome, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

    console.log('starting the server (child process) on that build and seeding a workspace…');
    server = await startServerProcess(dataDir, { BENCH_STATIC_DIR: outDir });
    const running = server;
    const { email, password, cookie: signupCookie } = await signUp(running.url, 'frontend');
    const key = await createKey(running.url, signupCookie, ['transfers:read', 'transfers:write', 'collections:write']);
    const api = apiClient(running, key);
    /** Registers files on a transfer or collection and uploads their bytes through tus. */
    const uploadAll = async (added: { tusEndpoint: string; files: { uploadToken: string }[] }, bodies: Buffer[]) => {
      for (const [i, f] of added.files.entries()) {
        const body = bodies[i]!;
        const location = await tusCreate(added.tusEndpoint, f.uploadToken, body.length);
        const res = await fetch(location, {
          method: 'PATCH',
          headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'x-service-upload-token': f.uploadToken },
          body: new Uint8Array(body),
        });
        if (res.status !== 204) throw new Error(`PATCH: ${res.status}`);
      }
    };
    // A list worth rendering: 25 sent transfers of three files each.
    for (let i = 0; i < 25; i++) {
      const names = ['Quarterly report.pdf', 'photos/site-visit-01.jpg', 'notes.txt'];
      const t = await api<{ id: string; tusEndpoint: string; files: { uploadToken: string }[] }>('POST', '/api/v1/transfers', {
        title: `Project files ${i + 1}`,
        message: 'Here are the files we talked about.',
        files: names.map((n) => ({ name: n.split('/').at(-1), path: n.includes('/') ? n.split('/')[0] : undefined, size: 2048 })),
      });
      await uploadAll(t, names.map(() => randomBytes(2048)));
      const sent = await api<{ url?: string }>('POST', `/api/v1/transfers/${t.id}/finalize`, {});
      if (typeof sent.url !== 'string') throw new Error('finalize answered without the transfer\'s url');
    }
    // The recipient page people open most: photos with previews (the server makes them), a PDF (its first page is
    // its preview) and a video (its poster), whose player and viewer load only when opened.
    const photos = await Promise.all(Array.from({ length: 8 }, (_, i) => benchPhoto(i)));
    const report = pdfOf(['Site report', 'Findings']);
    const clip = await testVideo('mp4', 4, '640x360');
    const recipient = await api<{ id: string; tusEndpoint: string; files: { uploadToken: string }[] }>('POST', '/api/v1/transfers', {
      title: 'Site visit photos',
      message: 'The photos from Tuesday, and the report. Have a look before Friday.',
      files: [
        ...photos.map((p, i) => ({ name: `site-visit-${String(i + 1).padStart(2, '0')}.jpg`, size: p.length, mimeType: 'image/jpeg' })),
        { name: 'Site report.pdf', size: report.length, mimeType: 'application/pdf' },
        { name: 'Walkthrough.mp4', size: clip.length, mimeType: 'video/mp4' },
      ],
    });
    await uploadAll(recipient, [...photos, report, clip]);
    const recipientUrl = (await api<{ url: string }>('POST', `/api/v1/transfers/${recipient.id}/finalize`, {})).url;
    // A public collection (the guest link people open) with photos and documents, and an upload request into it.
    const collection = await api<{ collection: { id: string; url: string } }>('POST', '/api/v1/collections', {
      title: 'Spring lookbook',
      description: 'Final selects, full resolution. Download what you need.',
      visibility: 'public',
    });
    const collectionFiles = await api<{ tusEndpoint: string; files: { uploadToken: string }[] }>('POST', `/api/v1/collections/${collection.collection.id}/files`, {
      files: [
        ...photos.map((p, i) => ({ name: `look-${String(i + 1).padStart(2, '0')}.jpg`, size: p.length, mimeType: 'image/jpeg' })),
        ...['Price list.pdf', 'Credits.txt'].map((name) => ({ name, size: 4096 })),
      ],
    });
    await uploadAll(collectionFiles, [...photos, randomBytes(4096), randomBytes(4096)]);
    const collectionUrl = collection.collection.url;
    const request = await api<{ request: { url: string } }>('POST', '/api/v1/requests', {
      title: 'Send us your signed contract',
      message: 'Upload the signed contract and a copy of your ID. PDF or images, please.',
      collectionId: collection.collection.id,
    });
    const requestUrl = request.request.url;
    await waitForPreviews(recipientUrl, collectionUrl, photos.length, photos.length + 2);
    const sessionCookie = await signIn(running.url, email, password);

    const pages = [
      { name: 'sign-in', url: `${running.url}/signin` },
      { name: 'transfers list', url: `${running.url}/transfers`, headers: { Cookie: sessionCookie } },
      { name: 'recipient page', url: recipientUrl },
      { name: 'collection page', url: collectionUrl },
      { name: 'upload request', url: requestUrl },
    ];
    const only = process.env.BENCH_PAGES?.split(',').map((s) => s.trim());
    const results: { page: string; formFactor: string; runs: LighthouseRun[] }[] = [];
    const unmeasured: string[] = [];
    for (const formFactor of formFactors) {
      for (const page of pages.filter((p) => !only || only.includes(p.name))) {
        const done: LighthouseRun[] = [];
        try {
          for (let i = 0; i < runs; i++) {
            console.log(`lighthouse ${formFactor} ${page.name} (${i + 1}/${runs})…`);
            const report = path.join(process.env.BENCH_LH_DIR || workDir, `lhr-${formFactor}-${page.name.replace(/\W+/g, '-')}-${i}.json`);
            const r = await lighthouseWithRetries(() => runLighthouse(chrome, page.url, formFactor, report, page.headers));
            if (new URL(r.finalUrl).pathname !== new URL(page.url).pathname) throw new Error(`${page.name}: Lighthouse ended on ${r.finalUrl}, not ${page.url}`);
            done.push(r);
          }
          results.push({ page: page.name, formFactor, runs: done });
        } catch (err) {
          // One page Lighthouse cannot measure is a finding to print, not a reason to lose the others.
          unmeasured.push(`${formFactor} ${page.name}: ${String(err).split('\n')[0]}`);
        }
      }
    }

    // ------------------------------------------------------------------ report
    const kb = (b: number) => (b / 1024).toFixed(1);
    console.log('');
    console.log('dashboard first-load JS per route, as sent (brotli; gzip -9 where no .br), production build');
    console.log(await machineLine());
    console.log('');
    console.log(`entry (index.html: the entry script and ${weights.entryChunks - 1} preloads): JS ${kb(weights.entryJs)} KB, CSS ${kb(weights.entryCss)} KB`);
    console.log(`scripts/check-bundle-budget.mjs on the same build: ${budgetOut.split('\n').filter((l) => l.startsWith('bundle budget')).join(' / ')}`);
    // Where signing in lands: the transfers list, with its layout's and its own chunks.
    const dashboard = weights.routes.find((r) => r.url === '/transfers');
    if (dashboard) console.log(`dashboard first load after sign-in (/transfers): JS ${kb(dashboard.jsBytes)} KB as sent (brotli), ${kb(dashboard.jsGzipBytes)} KB gzip`);
    console.log('');
    const w = Math.max(...weights.routes.map((r) => r.url.length));
    const fw = Math.max(...weights.routes.map((r) => r.file.length));
    console.log(`${'route'.padEnd(w)}  ${'file'.padEnd(fw)}   first-load JS (brotli)   beyond the entry   chunks   (gzip)`);
    for (const r of weights.routes) {
      console.log(
        `${r.url.padEnd(w)}  ${r.file.padEnd(fw)}   ${kb(r.jsBytes).padStart(17)} KB   ${kb(r.routeJsBytes).padStart(13)} KB   ${String(r.chunks).padStart(6)}   ${kb(r.jsGzipBytes).padStart(6)} KB`,
      );
    }
    console.log('');
    console.log(`Lighthouse ${LIGHTHOUSE_VERSION} (${process.version}), ${chromeVersion} headless, ${runs} run(s) each, median; simulated throttling (mobile: Moto G Power, slow 4G, 4x CPU; desktop preset)`);
    console.log('the server: a child process on loopback serving that build, embedded PostgreSQL; over plain http Chromium asks for gzip, not brotli,');
    console.log('so "JS sent" is the gzip figure plus response headers (and theme-init.js)');
    console.log('');
    console.log(`${'form factor'.padEnd(11)}  ${'page'.padEnd(15)}  perf  a11y   FCP ms   LCP ms   TBT ms    CLS   JS sent KB   each run perf / a11y`);
    for (const { page, formFactor, runs: rs } of results) {
      const m = (f: (r: LighthouseRun) => number) => median(rs.map(f));
      console.log(
        `${formFactor.padEnd(11)}  ${page.padEnd(15)}  ${String(m((r) => r.performance)).padStart(4)}  ${String(m((r) => r.accessibility)).padStart(4)}  ` +
          `${m((r) => r.fcp).toFixed(0).padStart(7)}  ${m((r) => r.lcp).toFixed(0).padStart(7)}  ${m((r) => r.tbt).toFixed(0).padStart(7)}  ${m((r) => r.cls).toFixed(3).padStart(5)}  ` +
          `${kb(m((r) => r.scriptBytes)).padStart(11)}   ${rs.map((r) => `${r.performance}/${r.accessibility}`).join(' ')}`,
      );
    }
    const failed = new Set(results.flatMap((r) => r.runs.flatMap((x) => x.failedA11y.map((id) => `${r.page}: ${id}`))));
    for (const { page, formFactor, runs: rs } of results) {
      // Opportunities Lighthouse named in most runs, with their median saving.
      const ids = [...new Set(rs.flatMap((r) => r.opportunities.map((o) => o.id)))].filter((id) => rs.filter((r) => r.opportunities.some((o) => o.id === id)).length * 2 > rs.length);
      const named = ids
        .map((id) => ({ id, ms: median(rs.map((r) => r.opportunities.find((o) => o.id === id)?.ms ?? 0)) }))
        .sort((x, y) => y.ms - x.ms)
        .map((o) => `${o.id} ~${o.ms.toFixed(0)} ms`);
      if (named.length > 0) console.log(`opportunities, ${formFactor} ${page}: ${named.join(', ')}`);
    }
    for (const line of unmeasured) console.log(`NOT MEASURED ${line}`);
    if (lighthouseRetries > 0) console.log(`Lighthouse runs repeated after a failed trace recording: ${lighthouseRetries}`);
    console.log(failed.size ? `accessibility audits not passed: ${[...failed].join(', ')}` : 'accessibility: every weighted audit passed on every page');
    await printServerErrors(running.logFile);
  } finally {
    await cleanup();
  }
}

runMain(main);
