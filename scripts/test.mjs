// The project's one test command (`npm test`): the jest suites, then the
// tracer's own pytest suite, then one closing line with the totals of all.
// jest runs twice (jest.config.js): the unit project with jest's default
// workers, its files in parallel, then the integration project (a real Docker
// engine and loopback servers) with --runInBand, its files one at a time.
// Extra arguments go to both jest runs (e.g. `npm test -- test/unit`, or a
// file's path), which then run alone, without pytest; a run that matches no
// test at all is a failure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
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
const junit = join(dir, 'pytest.xml');

let passed = 0;
let failed = 0;
let skipped = 0;
let jestRan = 0;
let jestStatus = 0;
for (const [project, workers] of [
  ['unit', []],
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
    { stdio: 'inherit' },
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

let pytestStatus = 0;
if (!extra.length) {
  const python = process.env.PYTHON ?? 'python3';
  // Two workers when pytest-xdist is there (.ci/run installs it): a file's tests stay in one worker,
  // so the catalog each file records once is not recorded twice within it.
  const xdist = spawnSync(python, ['-c', 'import xdist'], { stdio: 'ignore' }).status === 0;
  const pytest = spawnSync(
    python,
    [
      '-m',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      ...(xdist ? ['-n', '2', '--dist', 'loadfile'] : []),
      `--junitxml=${junit}`,
      'tracer/tests',
    ],
    {
      stdio: 'inherit',
    },
  );
  pytestStatus = pytest.status ?? 1;
  if (existsSync(junit)) {
    const xml = readFileSync(junit, 'utf8');
    const attr = (name) =>
      Number(new RegExp(`<testsuite [^>]*${name}="(\\d+)"`).exec(xml)?.[1] ?? 0);
    const total = attr('tests');
    const bad = attr('failures') + attr('errors');
    passed += total - bad - attr('skipped');
    failed += bad;
    skipped += attr('skipped');
    if (total === 0) failed += 1; // an empty tracer suite is a failure, not a pass
  } else failed += 1;
}

// Skips are counted apart: a skipped test is neither a pass nor hidden.
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(jestStatus === 0 && pytestStatus === 0 && failed === 0 ? 0 : 1);
