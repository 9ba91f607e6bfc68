import fs from 'node:fs';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/**
 * Writes `routes.json` beside the built app: every path the SPA routes (from TanStack Router's
 * generated route tree), such as `/transfers/$transferId`. The server answers a path no route
 * matches with status 404 (the SPA still renders its not-found page), and a known one with 200.
 */
export function appRoutesManifest(routeTreeFile: string): Plugin {
  return {
    name: 'app-routes-manifest',
    apply: 'build',
    // The browser's build only (not the server render's, dist/ssr).
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(appRoutePaths(fs.readFileSync(routeTreeFile, 'utf8'))) });
      this.emitFile({ type: 'asset', fileName: 'route-chunks.json', source: JSON.stringify(routeChunks(bundle)) });
    },
  };
}

/**
 * `route-chunks.json`: for each route file (`t/$slug.tsx`), the scripts its page component needs
 * beyond the entry (its code-split chunk and what that imports), as `/assets/…` URLs. The server
 * names them in `<link rel="modulepreload">` on the pages it fills with data, so the browser fetches
 * them beside the entry instead of after it. Under `lib/hydrate.tsx`, the same for the hydration of
 * a server-rendered public page (src/app/lib/hydrate.tsx), which the server preloads beside them.
 */
export function routeChunks(bundle: OutputBundle): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: string[], into = new Set<string>()) => {
    for (const file of start) {
      if (into.has(file)) continue;
      into.add(file);
      closure(byFile.get(file)?.imports ?? [], into);
    }
    return into;
  };
  const entry = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
  const result: Record<string, string[]> = {};
  for (const chunk of chunks) {
    const route =
      /\/src\/app\/routes\/(.+\.tsx)\?tsr-split=component$/.exec(chunk.facadeModuleId ?? '')?.[1] ??
      /\/src\/app\/(lib\/hydrate\.tsx)$/.exec(chunk.facadeModuleId ?? '')?.[1];
    if (!route) continue;
    result[route] = [...closure([chunk.fileName])].filter((f) => !entry.has(f)).map((f) => `/${f}`);
  }
  return result;
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
