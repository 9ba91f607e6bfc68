/**
 * The catalog sets and the code each one's English source is extracted from (`npm run i18n:extract`, checked by
 * catalogs.test.ts). A page loads only the catalogs it needs: the pages of a shared link (a transfer's, a
 * collection's, an upload request's) load `app`, so a recipient in German fetches a few kilobytes; the dashboard
 * loads `app` and `dashboard`; the server reads `mail` and `errors`.
 */
const SHARED_LINK_PAGES = [
  'src/app/features/recipient/**/*.{ts,tsx}',
  'src/app/features/uploader-page/**/*.{ts,tsx}',
  'src/app/components/**/*.{ts,tsx}',
  'src/app/lib/**/*.{ts,tsx}',
  'src/app/routes/{t,c,r}/**/*.{ts,tsx}',
  'src/app/routes/{__root,$slug}.tsx',
  'src/app/*.{ts,tsx}',
];
const APP_IGNORES = ['**/*.test.{ts,tsx}', 'src/app/routeTree.gen.ts', 'src/app/test/**'];

const SERVER = ['src/server/**/*.ts', '--ignore', '**/*.test.ts'];

/** Each area's `formatjs extract` arguments, and the ids it keeps of what they find (the server's code holds two areas). */
export const CATALOG_AREAS: Record<string, { sources: readonly string[]; ids?: RegExp }> = {
  app: { sources: [...SHARED_LINK_PAGES, '--ignore', ...APP_IGNORES] },
  dashboard: { sources: ['src/app/**/*.{ts,tsx}', '--ignore', ...SHARED_LINK_PAGES, ...APP_IGNORES] },
  mail: { sources: SERVER, ids: /^mail\./ },
  // The sentences of the server's answers, `said({ id, defaultMessage }, values)` (src/server/core/sentences.ts).
  errors: { sources: [...SERVER, '--additional-function-names', 'said'], ids: /^api\./ },
};

/** The English source of an area from what `formatjs extract --format simple` printed: the ids the area keeps. */
export function areaSource(area: string, extracted: Record<string, string>): Record<string, string> {
  const { ids } = CATALOG_AREAS[area]!;
  return Object.fromEntries(Object.entries(extracted).filter(([id]) => !ids || ids.test(id)));
}
