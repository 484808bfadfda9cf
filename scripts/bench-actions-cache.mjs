// A fresh runner with a warm Actions cache vs a cold one, side by side in one run: the bundled
// Action (dist/index.js) on a sample of the bundle, harvesting in Docker, against the loopback
// cache service of test/helpers/github-server.ts (compiled with tsc). Each job starts on an empty
// cache directory; a cold job finds the service empty, a warm one finds the entry the previous
// job saved. Containers are counted from the engine's own events.
//
//   node scripts/bench-actions-cache.mjs [--sample 40] [--rounds 2]
//
// A warm-up job runs first (it builds the environments' images) and is not counted.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileForBench } from './compile-helper.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '2' },
  },
});
const { FakeGitHub, runtimeToken } = await import(
  compileForBench(root, 'tracegate-bench-cache-github', 'test/helpers/github-server.ts')
);
const { startHeuristicServer, HEURISTIC_MODEL } = await import(
  compileForBench(root, 'tracegate-bench-cache-model', 'src/adapters/heuristic-model/server.ts')
);

const github = new FakeGitHub();
const api = await github.start();
const model = await startHeuristicServer();
const work = mkdtempSync(join(tmpdir(), 'tracegate-bench-cache-'));
let runs = 0;

/** One job of a fresh runner; its wall time, containers created and oracle summary. */
async function job() {
  const run = ++runs;
  rmSync(join(work, 'cache'), { recursive: true, force: true });
  const sha = String(run % 10).repeat(40);
  const event = join(work, `event-${run}.json`);
  writeFileSync(
    event,
    JSON.stringify({ after: sha, repository: { name: 'm', owner: { login: 'a' } } }),
  );
  for (const name of ['output', 'summary']) writeFileSync(join(work, `${name}-${run}`), '');
  const inputs = {
    endpoint: model.url,
    model: HEURISTIC_MODEL,
    instances: join(root, 'instances'),
    sample: values.sample,
    seed: '1',
    cache: join(work, 'cache'),
    out: join(work, `out-${run}`),
    history: join(work, 'history'),
    comment: 'false',
    'check-run': 'false',
    variants: 'off',
  };
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: join(work, `output-${run}`),
    GITHUB_STEP_SUMMARY: join(work, `summary-${run}`),
    RUNNER_TEMP: work,
    GITHUB_API_URL: api,
    GITHUB_REPOSITORY: 'a/m',
    GITHUB_WORKSPACE: work,
    GITHUB_RUN_ID: String(run),
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: event,
    GITHUB_REF: 'refs/heads/main',
    GITHUB_SHA: sha,
    ACTIONS_RESULTS_URL: `${api}/`,
    ACTIONS_CACHE_SERVICE_V2: 'true',
    ACTIONS_RUNTIME_TOKEN: runtimeToken(run, 'refs/heads/main'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  };
  const since = Math.floor(Date.now() / 1000);
  const started = Date.now();
  const stdout = await new Promise((resolve) => {
    let text = '';
    const child = spawn(process.execPath, [join(root, 'dist', 'index.js')], { env });
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('close', (code) => resolve(code === 0 ? text : `${text}\nexit ${code}`));
  });
  const seconds = (Date.now() - started) / 1000;
  const until = Math.ceil(Date.now() / 1000) + 1;
  const events = execFileSync('docker', [
    'events',
    '--since',
    String(since),
    '--until',
    String(until),
    '--filter',
    'type=container',
    '--filter',
    'event=create',
    '--format',
    '{{.ID}}',
  ])
    .toString()
    .trim();
  const m = /Oracles: (\d+) from cache, (\d+) harvested, (\d+) failed/.exec(stdout);
  if (!m) throw new Error(`job ${run}: no oracle summary\n${stdout.slice(-3000)}`);
  return {
    seconds,
    containers: events ? events.split('\n').length : 0,
    cached: Number(m[1]),
    harvested: Number(m[2]),
    restored: /Restored the tracegate cache from/.test(stdout),
  };
}

try {
  github.cache.length = 0;
  await job(); // warm-up: images built
  const rows = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    github.cache.length = 0; // the service forgets: a cold runner
    rows.push(['cold', round, await job()]);
    rows.push(['warm', round, await job()]); // finds the entry the cold job saved
  }
  const entry = github.cache.at(-1);
  console.log(`| job | round | restored | oracles from cache / harvested | containers | wall |`);
  console.log(`|---|---:|---|---:|---:|---:|`);
  for (const [kind, round, r] of rows)
    console.log(
      `| ${kind} | ${round} | ${r.restored ? 'yes' : 'no'} | ${r.cached} / ${r.harvested} | ${r.containers} | ${r.seconds.toFixed(1)} s |`,
    );
  const mean = (kind) => {
    const list = rows.filter((r) => r[0] === kind).map((r) => r[2].seconds);
    return list.reduce((a, b) => a + b, 0) / list.length;
  };
  console.log(
    `\ncold ÷ warm wall time: ${(mean('cold') / mean('warm')).toFixed(2)}×; entry ${entry ? entry.blob.length : 0} bytes for ${values.sample} instances`,
  );
} finally {
  await github.stop();
  await model.close();
  rmSync(work, { recursive: true, force: true });
}
