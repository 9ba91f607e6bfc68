// The time budget of the test suites: fails when one test file takes more than its share, so CI stays
// within its minutes as tests are added (docs/testing.md). Reads the JSON reports of Vitest and, when
// given, Playwright; prints the slowest files either way.
//
//   node scripts/test-budget.mjs <vitest.json> [playwright.json]
//   TEST_FILE_BUDGET_SECONDS   the most one file may take, default 150 (wall clock, three server files at a time on two cores)
import fs from 'node:fs';
import path from 'node:path';

const budgetSeconds = Number(process.env.TEST_FILE_BUDGET_SECONDS ?? 150);
const root = process.cwd();

const read = (file) => {
  try {
    return file ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
};

/** Seconds per Vitest file: from its first hook to its last, as the worker ran it (collection included). */
function vitestFiles(report) {
  return (report?.testResults ?? []).map((file) => ({
    suite: 'vitest',
    file: path.relative(root, file.name),
    seconds: Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)) / 1000,
    tests: file.assertionResults?.length ?? 0,
  }));
}

/** Seconds per Playwright spec file: the sum of its tests' attempts (the suite runs one test at a time). */
function playwrightFiles(report) {
  const perFile = new Map();
  const visit = (suite, file) => {
    const name = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const entry = perFile.get(name) ?? { suite: 'playwright', file: path.join('e2e', name), seconds: 0, tests: 0 };
        entry.tests += 1;
        for (const result of test.results ?? []) entry.seconds += (result.duration ?? 0) / 1000;
        perFile.set(name, entry);
      }
    }
    for (const child of suite.suites ?? []) visit(child, name);
  };
  for (const suite of report?.suites ?? []) visit(suite, suite.file);
  return [...perFile.values()];
}

const files = [...vitestFiles(read(process.argv[2])), ...playwrightFiles(read(process.argv[3]))].sort((a, b) => b.seconds - a.seconds);
const over = files.filter((f) => f.seconds > budgetSeconds);

console.log(`slowest test files (budget ${budgetSeconds} s each):`);
for (const f of files.slice(0, 12)) {
  console.log(`  ${f.seconds.toFixed(1).padStart(6)} s  ${String(f.tests).padStart(3)} tests  ${f.suite.padEnd(10)} ${f.file}${f.seconds > budgetSeconds ? '   OVER BUDGET' : ''}`);
}
if (over.length) {
  console.log(`\n${over.length} test file(s) took more than ${budgetSeconds} s: split them, share their set-up, or cut their waits (docs/testing.md).`);
  process.exit(1);
}
