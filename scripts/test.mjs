// The project's one test command (`npm test`): the jest suites (the tracer's
// own pytest suite among them, run in both harvest images), then one closing
// line with the totals of all, the tracer's tests counted one by one.
// jest runs per project (jest.config.js): the unit project with a worker per core
// (jest's default leaves one core idle: 45.6 s against 29.1 s on two cores,
// docs/benchmarks.md), its files in parallel; then the integration project (a real Docker
// engine and loopback servers), its files one at a time, in two phases:
//  1. the tracer's suite (both interpreters, a core each, ~7 min) beside BESIDE_TRACER, a lane of
//     its own: files that leave a core mostly idle (HTTP against loopback servers, the Actions
//     cache, a registry, harvests of traced kinds only) and whose assertions hold at any speed —
//     no measured kind (time, memory), no bound on elapsed time. The lanes share the two cores
//     instead of leaving one idle (docs/benchmarks.md, "the test suites").
//  2. every other integration file alone: the measuring harvests, the timing bounds, the long
//     runs. A new file lands here unless it is listed.
// Extra arguments go to every jest run (e.g. `npm test -- test/unit`, or a
// file's path), which then run one after the other in a single integration
// run; a run that matches no test at all is a failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TRACER_SUITE = 'test/integration/tracer-in-containers.test.ts';
/** Integration files that may run beside the tracer's suite (phase 1's second lane). */
const BESIDE_TRACER = [
  'actions-cache',
  'action-dist',
  'action-github',
  'cli-errors',
  'dashboard-browser',
  'endpoint-cli',
  'endpoint-stage',
  'environments',
  'github-server',
  'history-branch',
  'history-cli',
  'registry',
  'remote-engine',
  'score-cli',
  'sticky-comments',
  'tracer-bundled-oracles',
  'transport-protocols',
].map((name) => `test/integration/${name}.test.ts`);

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
let runs = 0;

/** One jest run's arguments and where its report goes. */
function jestArgs(project, options, files) {
  const report = join(dir, `jest-${project}-${++runs}.json`);
  const args = [
    '--experimental-vm-modules',
    '--no-warnings',
    'node_modules/jest/bin/jest.js',
    '--selectProjects',
    project,
    ...options,
    // Given a path, one of the two projects may hold none of its tests.
    ...(extra.length ? ['--passWithNoTests'] : []),
    '--json',
    `--outputFile=${report}`,
    ...files,
  ];
  return { args, report };
}

// The tests' scratch directories go under this run's own: removed when the run passes, kept (and
// named) when it fails, never left by the hundred in the machine's temporary directory.
const scratch = join(dir, 'tmp');
mkdirSync(scratch);
const env = { ...process.env, TRACEGATE_TEST_TOTALS: totals, TMPDIR: scratch };

/** Adds a finished jest run's counts to the totals. */
function count(status, report) {
  jestStatus ||= status ?? 1;
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
    skipped += r.numPendingTests + r.numTodoTests;
    jestRan += r.numTotalTests + r.numRuntimeErrorTestSuites;
  } else failed += 1;
}

/** A jest run in the foreground, its output as it comes. */
function runJest(project, options, files) {
  const { args, report } = jestArgs(project, options, files);
  const child = spawn(process.execPath, args, { stdio: 'inherit', env });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      count(status, report);
      resolve();
    });
  });
}

/** A jest run beside the foreground one: its output held and printed whole when it ends. */
function startJest(project, options, files) {
  const { args, report } = jestArgs(project, options, files);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const output = [];
  child.stdout.on('data', (c) => output.push(c));
  child.stderr.on('data', (c) => output.push(c));
  return new Promise((resolve) => {
    child.on('close', (status) => {
      process.stdout.write(Buffer.concat(output));
      count(status, report);
      resolve();
    });
  });
}

await runJest('unit', ['--maxWorkers=100%'], extra);
if (extra.length) await runJest('integration', ['--runInBand'], extra);
else {
  const all = readdirSync('test/integration')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/integration/${f}`);
  const missing = [TRACER_SUITE, ...BESIDE_TRACER].filter((f) => !all.includes(f));
  if (missing.length) {
    console.error(`tracegate tests: scripts/test.mjs lists files that do not exist: ${missing}`);
    failed += 1;
  }
  const beside = BESIDE_TRACER.filter((f) => all.includes(f));
  const alone = all.filter((f) => f !== TRACER_SUITE && !beside.includes(f));
  // Phase 1: the tracer's suite beside its lane; phase 2: the rest, alone. A path is a pattern
  // to jest: each is anchored so that it names its own file only.
  const only = (files) => files.map((f) => `${f.replace(/[.]/g, '\\.')}$`);
  const tracer = startJest('integration', ['--runInBand'], only([TRACER_SUITE]));
  await runJest('integration', ['--runInBand'], only(beside));
  await tracer;
  await runJest('integration', ['--runInBand'], only(alone));
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
const ok = jestStatus === 0 && failed === 0;
if (ok) rmSync(dir, { recursive: true, force: true });
else console.log(`the tests' reports and scratch directories are kept in ${dir}`);
process.exit(ok ? 0 : 1);
