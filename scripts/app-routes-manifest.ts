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

/**
 * `/$slug` is a collection's page on a workspace's own domain only; the server decides those itself (from the Host
 * and the collection), and on its own host the SPA renders its not-found page there. Listing it would make every
 * one-segment path a page.
 */
const CUSTOM_DOMAIN_ONLY = new Set(['/$slug']);

/** The `fullPaths` union of a generated route tree, as a list (without the custom-domain-only page). */
export function appRoutePaths(routeTree: string): string[] {
  const union = /fullPaths:\s*((?:\|\s*'[^']*'\s*)+)/.exec(routeTree)?.[1];
  if (!union) throw new Error('app-routes-manifest: no fullPaths in the generated route tree');
  return [...union.matchAll(/'([^']*)'/g)].map((m) => m[1]!).filter((p) => !CUSTOM_DOMAIN_ONLY.has(p));
}
