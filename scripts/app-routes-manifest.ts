import fs from 'node:fs';
import type { Plugin } from 'vite';

/**
 * Writes `routes.json` beside the built app: every path the SPA routes (from TanStack Router's
 * generated route tree), such as `/transfers/$transferId`. The server answers a path no route
 * matches with status 404 (the SPA still renders its not-found page), and a known one with 200.
 */
export function appRoutesManifest(routeTreeFile: string): Plugin {
  return {
    name: 'app-routes-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(appRoutePaths(fs.readFileSync(routeTreeFile, 'utf8'))) });
    },
  };
}

/** The `fullPaths` union of a generated route tree, as a list. */
export function appRoutePaths(routeTree: string): string[] {
  const union = /fullPaths:\s*((?:\|\s*'[^']*'\s*)+)/.exec(routeTree)?.[1];
  if (!union) throw new Error('app-routes-manifest: no fullPaths in the generated route tree');
  return [...union.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}
