/**
 * The catalog sets and the code each one's English source is extracted from (`npm run i18n:extract`, checked by
 * catalogs.test.ts). A page loads only the catalogs it needs: the pages of a shared link (a transfer's, a
 * collection's, an upload request's) load `app`, so a recipient in German fetches a few kilobytes; the dashboard
 * loads `app` and `dashboard`; the server reads `mail`.
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

export const CATALOG_AREAS = {
  app: [...SHARED_LINK_PAGES, '--ignore', ...APP_IGNORES],
  dashboard: ['src/app/**/*.{ts,tsx}', '--ignore', ...SHARED_LINK_PAGES, ...APP_IGNORES],
  mail: ['src/server/**/*.ts', '--ignore', '**/*.test.ts'],
} as const;

export type CatalogArea = keyof typeof CATALOG_AREAS;
