// The project's one test command (`npm test`): the jest suites (unit +
// integration against a real Docker engine and loopback servers), then the
// tracer's own pytest suite, then one closing line with the totals of both.
// Extra arguments go to jest (e.g. `npm test -- test/unit`), which then runs alone.
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
const jestJson = join(dir, 'jest.json');
const junit = join(dir, 'pytest.xml');

const jest = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    '--no-warnings',
    'node_modules/jest/bin/jest.js',
    '--json',
    `--outputFile=${jestJson}`,
    ...extra,
  ],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(jestJson)) {
  const report = JSON.parse(readFileSync(jestJson, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests + report.numRuntimeErrorTestSuites;
  skipped += report.numPendingTests + report.numTodoTests;
} else failed += 1;

let pytestStatus = 0;
if (!extra.length) {
  const python = process.env.PYTHON ?? 'python3';
  const pytest = spawnSync(
    python,
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`, 'tracer/tests'],
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
process.exit(jest.status === 0 && pytestStatus === 0 && failed === 0 ? 0 : 1);
