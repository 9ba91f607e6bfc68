// Adds up the Vitest and Playwright JSON reports into one closing line: "N passed, N failed, N skipped".
import fs from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

const vitest = read(process.argv[2]);
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  // A file that fails to load has no failed tests of its own but must still count.
  failed += Math.max(vitest.numFailedTests ?? 0, vitest.numFailedTestSuites ?? 0);
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
} else {
  failed += 1;
}
const playwright = read(process.argv[3]);
if (playwright?.stats) {
  passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected ?? 0;
  skipped += playwright.stats.skipped ?? 0;
} else {
  failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
