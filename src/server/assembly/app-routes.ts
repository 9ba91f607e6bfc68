import fs from 'node:fs';

/**
 * Whether the SPA has a page at a path, from the `routes.json` the build writes beside the app
 * (TanStack Router paths such as `/transfers/$transferId`). The server still sends the SPA for
 * other paths, so it can render its not-found page, but with status 404, as crawlers, link
 * checkers and monitoring expect. Without the manifest every path counts as a page.
 */
export function appRouteMatcher(manifestFile: string): (path: string) => boolean {
  let patterns: RegExp[] | null = null;
  try {
    const paths = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as string[];
    patterns = paths.map(routePattern);
  } catch {
    return () => true;
  }
  return (path) => {
    const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
    return patterns.some((p) => p.test(trimmed));
  };
}

function routePattern(route: string): RegExp {
  const segments = route.replace(/\/+$/, '').split('/').filter(Boolean);
  const source = segments
    .map((s) => (s === '$' ? '.*' : s.startsWith('$') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^/${source}$`);
}
