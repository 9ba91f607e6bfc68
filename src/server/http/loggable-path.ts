/**
 * Paths that carry capabilities (signed download tokens, share slugs) are logged without them:
 * a log line must never be enough to download someone's files.
 */
const CAPABILITY_PATHS: [RegExp, string][] = [
  [/^\/dl\/[^/]+/, '/dl/:token'],
  [/^\/t\/[^/]+/, '/t/:slug'],
  [/^\/c\/[^/]+/, '/c/:slug'],
  [/^\/r\/[^/]+/, '/r/:slug'],
  [/^\/api\/public\/(transfers|collections|requests)\/[^/]+/, '/api/public/$1/:slug'],
];

export function loggablePath(path: string): string {
  for (const [pattern, replacement] of CAPABILITY_PATHS) if (pattern.test(path)) return path.replace(pattern, replacement);
  return path;
}
