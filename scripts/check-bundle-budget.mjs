#!/usr/bin/env node
// Checks the dashboard's first load after `vite build`: the entry script and everything
// index.html preloads must stay under the budget as a browser receives them (the precompressed
// brotli copy the server sends; gzip where there is none), and none of it may contain upload code
// (Uppy, tus), which belongs to the chunks of the routes that upload (New transfer, a collection).
// No source map may be built.
//
//   node scripts/check-bundle-budget.mjs [distDir]     (default dist/app; budget via BUNDLE_BUDGET_KB)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const distDir = process.argv[2] ?? 'dist/app';
const budgetKb = Number(process.env.BUNDLE_BUDGET_KB ?? 150);
const uploadMarkers = ['uppy-Dashboard', 'uppy-StatusBar', 'tus: failed to', 'tus-js-client'];

let html;
try {
  html = readFileSync(join(distDir, 'index.html'), 'utf8');
} catch {
  console.error(`bundle budget: ${join(distDir, 'index.html')} not found; run \`npx vite build\` first.`);
  process.exit(2);
}

const attribute = (tag, name) => tag.match(new RegExp(`\\b${name}="([^"]+)"`))?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const scripts = [];
const styles = [];
for (const tag of tags) {
  if (tag.startsWith('<script') && /type="module"/.test(tag)) scripts.push(attribute(tag, 'src'));
  else if (tag.startsWith('<link') && /rel="modulepreload"/.test(tag)) scripts.push(attribute(tag, 'href'));
  else if (tag.startsWith('<link') && /rel="stylesheet"/.test(tag)) styles.push(attribute(tag, 'href'));
}

const failures = [];
function measure(urls) {
  let total = 0;
  const rows = [];
  for (const url of urls.filter(Boolean)) {
    if (!url.startsWith('/')) continue; // only our own assets
    const content = readFileSync(join(distDir, url));
    const brotli = join(distDir, `${url}.br`);
    const gzipped = existsSync(brotli) ? readFileSync(brotli).length : gzipSync(content, { level: 9 }).length;
    total += gzipped;
    rows.push({ url, gzipped });
    const text = content.toString('utf8');
    for (const marker of uploadMarkers) {
      if (text.includes(marker)) failures.push(`${url} is loaded up front but contains upload code ("${marker}")`);
    }
  }
  return { total, rows };
}

const js = measure(scripts);
const css = measure(styles);
const kb = (bytes) => (bytes / 1024).toFixed(1);
for (const { url, gzipped } of [...js.rows, ...css.rows].sort((a, b) => b.gzipped - a.gzipped)) {
  console.log(`  ${kb(gzipped).padStart(7)} KB  ${url}`);
}
console.log(`bundle budget: first-load JS ${kb(js.total)} KB as sent (${js.rows.length} files), CSS ${kb(css.total)} KB; budget ${budgetKb} KB for JS`);

const maps = (function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.map') ? [join(dir, e.name)] : []));
})(distDir);
for (const map of maps) failures.push(`${map} is a source map; the build must not publish the app's source`);
if (js.total > budgetKb * 1024) failures.push(`first-load JS is ${kb(js.total)} KB gzipped, over the ${budgetKb} KB budget`);

if (failures.length > 0) {
  for (const failure of failures) console.error(`bundle budget: FAIL ${failure}`);
  process.exit(1);
}
console.log('bundle budget: ok');
