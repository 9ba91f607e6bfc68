// `npm run i18n:extract`: writes each catalog set's English source (src/locales/<area>/en.json) from the code,
// by the areas in src/locales/areas.ts. The translations are then brought up to it by hand (docs/translating.md).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { CATALOG_AREAS } from '../src/locales/areas';

const root = path.resolve(import.meta.dirname, '..');
for (const [area, sources] of Object.entries(CATALOG_AREAS)) {
  const outFile = path.join('src/locales', area, 'en.json');
  execFileSync(path.join(root, 'node_modules/.bin/formatjs'), ['extract', ...sources, '--format', 'simple', '--out-file', outFile], { cwd: root, stdio: 'inherit' });
  console.log(`${outFile}: written`);
}
