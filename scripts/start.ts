import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `npm start`: builds the web app (and its server render) when it is missing or older than its sources, then serves everything. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/app/index.html');
/** The public pages' server render, built by the same `vite build` (vite.config.ts). */
const builtServerRender = path.join(root, 'dist/ssr/entry-server.js');

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((m, name) => Math.max(m, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

const sources = ['index.html', 'public', 'src/app', 'src/contract', 'src/crypto', 'vite.config.ts', 'package.json'].map((p) => path.join(root, p));
const builtAt = fs.statSync(builtIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (builtAt === 0 || !fs.existsSync(builtServerRender) || sources.some((s) => newestMtime(s) > builtAt)) {
  console.log('Building the web app…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import('../src/server/main.js');
