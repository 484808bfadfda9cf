// The project's one test command (`npm test`): the jest suites (the tracer's
// own pytest suite among them, run in both harvest images), then one closing
// line with the totals of all, the tracer's tests counted one by one.
// jest runs twice (jest.config.js): the unit project with a worker per core
// (jest's default leaves one core idle: 45.6 s against 29.1 s on two cores,
// docs/benchmarks.md), its files in parallel, then the integration project (a real Docker
// engine and loopback servers) with --runInBand, its files one at a time.
// Extra arguments go to both jest runs (e.g. `npm test -- test/unit`, or a
// file's path), which then run alone; a run that matches no test at all is a
// failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const extra = process.argv.slice(2);
if (!existsSync('node_modules/jest/bin/jest.js')) {
  console.error(
    'tracegate tests: jest is not installed here. Run `npm ci` first (README: `npm ci && npm test`).',
  );
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'tracegate-test-'));
const totals = join(dir, 'totals');
mkdirSync(totals);

let passed = 0;
let failed = 0;
let skipped = 0;
let jestRan = 0;
let jestStatus = 0;
for (const [project, workers] of [
  ['unit', ['--maxWorkers=100%']],
  ['integration', ['--runInBand']],
]) {
  const report = join(dir, `jest-${project}.json`);
  const jest = spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--no-warnings',
      'node_modules/jest/bin/jest.js',
      '--selectProjects',
      project,
      ...workers,
      // Given a path, one of the two projects may hold none of its tests.
      ...(extra.length ? ['--passWithNoTests'] : []),
      '--json',
      `--outputFile=${report}`,
      ...extra,
    ],
    { stdio: 'inherit', env: { ...process.env, TRACEGATE_TEST_TOTALS: totals } },
  );
  jestStatus ||= jest.status ?? 1;
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
    skipped += r.numPendingTests + r.numTodoTests;
    jestRan += r.numTotalTests + r.numRuntimeErrorTestSuites;
  } else failed += 1;
}
if (jestRan === 0) {
  console.error(`tracegate tests: no jest test matched ${extra.join(' ') || '(no arguments)'}`);
  failed += 1;
}

// The tracer's own pytest suite runs inside the harvest's sandbox on both interpreters it supports
// (test/integration/tracer-in-containers.test.ts: Python 3.11 and 3.13, one core each, at once);
// each run leaves its counts here and they join the totals test by test. A whole run in which
// either did not report is a failure. (`npm run test:tracer` runs it on the host's python3.)
const reports = readdirSync(totals).filter((f) => /^tracer-python-.*\.json$/.test(f));
for (const file of reports) {
  const r = JSON.parse(readFileSync(join(totals, file), 'utf8'));
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped;
  if (r.passed === 0) failed += 1; // an empty tracer suite is a failure, not a pass
}
if (!extra.length && reports.length < 2) {
  console.error(
    `tracegate tests: the tracer suite reported from ${reports.length} of its 2 interpreters`,
  );
  failed += 1;
}

// Skips are counted apart: a skipped test is neither a pass nor hidden.
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(jestStatus === 0 && failed === 0 ? 0 : 1);
