import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import formatjs from 'eslint-plugin-formatjs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The app's features (src/app/features/<feature>): each is imported by the others only through its index.ts. */
const features = readdirSync(join(import.meta.dirname, 'src/app/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const appBansServer = { group: ['**/server/**'] };
/**
 * For the files of `feature`: another feature's folders (anything but its index.ts) are out of reach,
 * whether reached by climbing (`../../collections/utils/folder-tree`) or through `features/`. Test code
 * may also take another feature's fixtures (its testing/ folder).
 */
function featureBoundary(feature, { tests }) {
  const others = features.filter((name) => name !== feature).join('|');
  const allowed = tests ? 'index$|testing/' : 'index$';
  const message = 'Another feature is imported through its index.ts (`../<feature>`), never from its folders: export what is needed there.';
  return [
    { regex: `^(?:\\.\\./)+(?:${others})/(?!${allowed})`, message },
    { regex: `(?:^|/)features/[^/]+/(?!${allowed})`, message },
  ];
}
/** A feature's index.ts only re-exports: vite.config.ts declares it free of side effects, so what it does not re-export stays unloaded. */
const featureIndexOnlyReexports = {
  selector: 'Program > :not(ExportNamedDeclaration[source])',
  message: "A feature's index.ts only re-exports (`export { … } from './…'`): vite.config.ts declares it free of side effects.",
};

/** The file engine, and the shared-link rules (availability, password unlocks) every owner applies. */
const ENGINE = ['uploads', 'downloads', 'storage', 'files', 'thumbnails', 'scanning', 'sharing'];
/** What owns files or is a resource of the workspace. An upload request is a collection's intake, so collections/requests/ is part of collections. */
const OWNERS = ['transfers', 'collections', 'vault', 'contacts', 'webhooks'];
/** What answers requests, and what wires it all. */
const SURFACES = ['api', 'public', 'dashboard', 'mcp', 'oauth', 'assembly'];
const folder = (name) => `**/${name}/**`;
/** Every word the app shows is a message (react-intl, src/locales/, docs/translating.md): all of its code but the tests'. */
const TRANSLATED = ['src/app/**/*.{ts,tsx}'];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'src/app/routeTree.gen.ts', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['public/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
  { files: ['scripts/**/*.mjs', 'src/server/**/*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    // Imports flow one way: the app never reaches into the server, nor the server into the app.
    files: ['src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [appBansServer] }] },
  },
  // Features import each other only through their index.ts. These entries replace the one above for
  // their files (a later no-restricted-imports replaces an earlier one), so each repeats the ban on the server.
  ...features.flatMap((feature) => [
    {
      files: [`src/app/features/${feature}/**/*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: [appBansServer, ...featureBoundary(feature, { tests: false })] }] },
    },
    {
      files: [`src/app/features/${feature}/**/*.test.{ts,tsx}`, `src/app/features/${feature}/testing/**/*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: [appBansServer, ...featureBoundary(feature, { tests: true })] }] },
    },
  ]),
  {
    // Every page speaks its reader's language (issue 38): no words outside the catalogs, every message well formed.
    files: TRANSLATED,
    ignores: ['**/*.test.{ts,tsx}', 'src/app/test/**', '**/testing/**', 'src/app/routeTree.gen.ts'],
    plugins: { formatjs },
    rules: {
      'formatjs/no-literal-string-in-jsx': ['error', { props: { include: [['*', '{aria-label,alt,title,placeholder,label,heading,lead,footer,description,emptyText,confirmLabel,message,hint}']] } }],
      'formatjs/enforce-default-message': ['error', 'literal'],
      'formatjs/enforce-id': ['error', { idInterpolationPattern: '[sha512:contenthash:base64:6]', idWhitelist: ['^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$'] }],
      'formatjs/enforce-placeholders': 'error',
      'formatjs/no-invalid-icu': 'error',
      'formatjs/no-multiple-whitespaces': 'error',
      'formatjs/no-offset': 'error',
    },
  },
  {
    files: ['src/app/features/*/index.ts'],
    rules: { 'no-restricted-syntax': ['error', featureIndexOnlyReexports] },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/app/**'] }] },
  },
  {
    // The core (errors, caller, ids and secrets, clock) is what every layer uses: it imports nothing of the server.
    files: ['src/server/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!\\.\\./contract/)', message: 'The core imports only the contract and libraries.' }, { group: ['**/app/**'] }] }],
    },
  },
  // The layers, bottom up: the core; the file engine (and the shared-link rules every owner applies);
  // the URL importer; the owners and the workspace's resources; the surfaces; the assembly
  // (docs/architecture.md). Each block below says what one layer may not reach.
  {
    // The file engine serves every kind of owner: owners plug in through files/owners.ts, never the reverse.
    files: ENGINE.map((dir) => `src/server/${dir}/**/*.ts`),
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...OWNERS, 'imports', ...SURFACES].map(folder), message: 'The file engine knows no owner, importer or surface; register a FileOwner instead.' }, { group: ['**/app/**'] }] }],
    },
  },
  {
    // The importer reaches owners only through their FileOwner (import ceiling, import failed).
    files: ['src/server/imports/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...OWNERS, ...SURFACES].map(folder), message: 'The importer knows no owner: it asks the FileOwner of the file.' }, { group: ['**/app/**'] }] }],
    },
  },
  // Operations (what an owner of files, or the workspace, does) are called by the surfaces: they
  // take parsed input and the caller, and know nothing of HTTP (src/server/http is the surfaces'
  // kit). Owners are equals: what two of them need lives in the engine, the core or events/, so
  // none imports another.
  ...OWNERS.map((owner) => ({
    files: [`src/server/${owner}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...SURFACES, 'http'].map(folder), message: 'Operations know nothing of HTTP: the surfaces parse, call them and answer.' },
            { group: OWNERS.filter((other) => other !== owner).map(folder), message: 'Owners are equals: move what two owners share to the engine, the core or events/.' },
            { group: ['**/app/**'] },
          ],
        },
      ],
    },
  })),
  {
    // Request input is parsed strictly: `z.coerce.number()` takes `0x10`, `1e2` and ` 10` as numbers,
    // and reading raw query strings skips validation (and the NUL check) altogether.
    files: ['src/contract/**/*.ts', 'src/server/api/**/*.ts', 'src/server/public/**/*.ts', 'src/server/dashboard/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='z'][property.name='coerce']", message: 'Parse request numbers strictly (see limitParam in src/contract/pagination.ts), not with z.coerce.' },
        { selector: "CallExpression[callee.property.name=/^(query|queries)$/][callee.object.property.name='req']", message: 'Declare query parameters in the route schema; raw c.req.query() skips validation.' },
      ],
    },
  },
);
