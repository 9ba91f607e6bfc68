// `npm run i18n:extract`: writes each catalog set's English source (src/locales/<area>/en.json) from the code,
// by the areas in src/locales/areas.ts. The translations are then brought up to it by hand (docs/translating.md).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { areaSource, CATALOG_AREAS } from '../src/locales/areas';

const root = path.resolve(import.meta.dirname, '..');
for (const [area, { sources }] of Object.entries(CATALOG_AREAS)) {
  const outFile = path.join(root, 'src/locales', area, 'en.json');
  const extracted = execFileSync(path.join(root, 'node_modules/.bin/formatjs'), ['extract', ...sources, '--format', 'simple'], { cwd: root, encoding: 'utf8' });
  const source = areaSource(area, JSON.parse(extracted) as Record<string, string>);
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, `${JSON.stringify(source, null, 2)}\n`);
  console.log(`${path.relative(root, outFile)}: ${Object.keys(source).length} messages`);
}
