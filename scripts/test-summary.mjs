// Adds up the Vitest and Playwright JSON reports into one closing line: "N passed, N failed, N skipped",
// preceded by the name of every failed test, so the last lines of a CI log say what to look at.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};
// Without the colour codes Playwright and Vitest put in their messages.
const firstLine = (message) =>
  String(message ?? '')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .find((line) => line.trim())
    ?.trim() ?? '';

const vitest = read(process.argv[2]);
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  // A file that fails to load has no failed tests of its own but must still count (numFailedTestSuites counts every
  // describe block around a failed test too, so it is not that).
  failed += (vitest.numFailedTests ?? 0) + (vitest.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')).length;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  for (const file of vitest.testResults ?? []) {
    const name = path.relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      // A test that ran out of time reports only "STACK_TRACE_ERROR": its duration says more.
      const seconds = typeof test.duration === 'number' ? ` (after ${(test.duration / 1000).toFixed(1)} s)` : '';
      failures.push(`vitest ${name} › ${test.fullName}${seconds}\n    ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`vitest ${name}\n    ${firstLine(file.message)}`);
  }
} else {
  failed += 1;
  failures.push('vitest: no report (the run stopped before it ended)');
}

const playwright = read(process.argv[3]);
if (playwright?.stats) {
  passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected ?? 0;
  skipped += playwright.stats.skipped ?? 0;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`playwright ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}\n    ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, suite.file === child.file && child.title !== child.file ? [...titles, child.title] : titles);
  };
  for (const suite of playwright.suites ?? []) visit(suite, []);
} else {
  failed += 1;
  failures.push('playwright: no report (the run stopped before it ended)');
}

if (failures.length > 0) console.log(`\nfailed:\n${failures.map((failure) => `  ${failure}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
