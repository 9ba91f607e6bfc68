import { posix } from 'node:path';

/**
 * Paths that carry capabilities (signed download tokens, share slugs) are logged without them:
 * a log line must never be enough to download someone's files. The path is matched in the form a
 * router could see it (percent-decoded, repeated slashes and dot segments collapsed, any case), so
 * `//dl/<token>` or `/%64l/<token>`, which fall through to the app, are redacted too.
 */
const CAPABILITY_PATHS: [RegExp, string][] = [
  [/^\/dl\/[^/]+/i, '/dl/:token'],
  [/^\/t\/[^/]+/i, '/t/:slug'],
  [/^\/c\/[^/]+/i, '/c/:slug'],
  [/^\/r\/[^/]+/i, '/r/:slug'],
  [/^\/api\/public\/(transfers|collections|requests)\/[^/]+/i, '/api/public/$1/:slug'],
];

function routedForm(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: match the path as it came.
  }
  return posix.normalize(decoded.replace(/\\/g, '/'));
}

export function loggablePath(path: string): string {
  const routed = routedForm(path);
  for (const [pattern, replacement] of CAPABILITY_PATHS) if (pattern.test(routed)) return routed.replace(pattern, replacement);
  return path;
}
