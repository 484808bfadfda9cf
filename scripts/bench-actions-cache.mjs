// A fresh runner and the Actions cache, side by side in one run: the bundled Action
// (dist/index.js), harvesting in Docker, against the loopback cache service of
// test/helpers/github-server.ts (compiled with tsc). Each job starts on an empty cache directory
// (a fresh runner); containers are counted from the engine's own events.
//
//   node scripts/bench-actions-cache.mjs [--mode warm] [--sample 40] [--rounds 2]
//     a cold job (the service empty) vs a warm one (it finds the entry the cold job saved); a
//     warm-up job runs first (it builds the environments' images) and is not counted.
//   node scripts/bench-actions-cache.mjs --mode images [--rounds 2]
//     a fresh runner that must harvest, with its environment images from the cache vs rebuilt
//     (the images removed from the engine before each job; the oracle entries dropped).
//   node scripts/bench-actions-cache.mjs --mode history
//     twelve pushes: a cold one, ten that change nothing in the suite, one that adds five
//     instances, one that changes the tracer; what each restores and harvests, and the entry size.
//
// The images and history modes run on a copy of some of the bundle's suites (--suites, default
// click,markdown: 261 instances, two environments; `all`: the whole bundle) and of the Action (dist/, tracer/), so that the history can add
// instances and change the tracer; their environments build on a base image of the bench's own
// name (the bundle's base with a label: another image id), so their images are built here, from
// scratch, and nowhere else.
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
    mode: { type: 'string', default: 'warm' },
    suites: { type: 'string', default: 'click,markdown' },
  },
});
if (!['warm', 'images', 'history'].includes(values.mode))
  throw new Error(`--mode must be warm, images or history, not ${values.mode}`);
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
async function job(extra = {}, action = root) {
  const run = ++runs;
  rmSync(join(work, 'cache'), { recursive: true, force: true });
  // A commit of its own per job: a repeated sha would restore that commit's older entry first.
  const sha = run.toString(16).padStart(40, '0');
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
    ...extra,
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
    const child = spawn(process.execPath, [join(action, 'dist', 'index.js')], { env });
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
    built: [...stdout.matchAll(/Building (tracegate-env:[0-9a-f]+) for environment/g)].map(
      (m) => m[1],
    ),
    loaded: [...stdout.matchAll(/Loaded (tracegate-env:[0-9a-f]+) for environment/g)].length,
    /** Seconds spent building or loading images, as the run says. */
    imageSeconds: [
      ...stdout.matchAll(/Built tracegate-env:[0-9a-f]+ in ([\d.]+) s/g),
      ...stdout.matchAll(
        /Loaded tracegate-env:[0-9a-f]+ for environment "[^"]+" from the Actions cache \(\d+ MB, ([\d.]+) s\)/g,
      ),
    ].reduce((n, m) => n + Number(m[1]), 0),
  };
}

/** Environment images this bench built (on its own base), removed at the end. */
const builtTags = [];
const docker = (...args) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const entries = (prefix) => github.cache.filter((e) => e.key.startsWith(prefix));
const dropEntries = (prefix) => {
  for (const e of entries(prefix)) github.cache.splice(github.cache.indexOf(e), 1);
};

/**
 * The bundle's base under an image id of its own (a label added, no layer): the engine's build
 * cache cannot reuse the layers of the bundle's images built on the same base, as a fresh
 * runner could not, and the base's layers are still the bundle's (left out of saved images).
 */
function ownBase() {
  const base = `tracegate-bench-cache-base:${process.pid}`;
  execFileSync('docker', ['build', '--network', 'none', '-q', '-t', base, '-'], {
    input: `FROM tracegate/base:bookworm\nLABEL tracegate.bench=${process.pid}\n`,
  });
  return base;
}

/** A copy of the Action (dist/, tracer/) and of two bundle suites, which the history may change. */
function copies() {
  const action = join(work, 'action');
  for (const part of ['dist', 'tracer', 'package.json'])
    cpSync(join(root, part), join(action, part), {
      recursive: true,
      filter: (src) => !/__pycache__|\.pytest_cache|[/]tests$/.test(src),
    });
  const suite = join(work, 'suite');
  const names =
    values.suites === 'all'
      ? readdirSync(join(root, 'instances'), { withFileTypes: true })
          .filter((d) => d.isDirectory() && d.name !== 'environments')
          .map((d) => d.name)
      : values.suites.split(',');
  for (const name of [...names, 'environments'])
    cpSync(join(root, 'instances', name), join(suite, name), { recursive: true });
  return { action, suite };
}

/** Five new instances: copies of existing ones under new ids (a suite that grew). */
function addInstances(suite) {
  const group = join(suite, 'click', 'test_click_parsing');
  const files = readdirSync(group)
    .filter((name) => name.endsWith('.instance.json'))
    .slice(0, 5);
  for (const name of files) {
    const id = name.replace(/\.instance\.json$/, '');
    const text = readFileSync(join(group, name), 'utf8').replace(`"${id}"`, `"${id}-added"`);
    writeFileSync(join(group, `${id}-added.instance.json`), text);
  }
}

async function imagesMode() {
  const { action, suite } = copies();
  const base = ownBase();
  const inputs = { instances: suite, 'base-image': base, sample: '' };
  try {
    const first = await job(inputs, action); // builds the images, saves them
    const images = first.built;
    builtTags.push(...images);
    const bytes = entries('tracegate-image-').reduce((n, e) => n + e.blob.length, 0);
    const whole = images.reduce(
      (n, tag) => n + Number(docker('image', 'inspect', tag, '--format', '{{.Size}}')),
      0,
    );
    const rows = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const kind of ['rebuilt', 'cached']) {
        for (const tag of images) docker('rmi', tag);
        dropEntries('tracegate-v2-');
        if (kind === 'rebuilt') {
          // A fresh runner has no build cache either: its layers would make a build a lookup.
          execFileSync('docker', ['builder', 'prune', '-af'], { stdio: 'ignore' });
          execFileSync('docker', ['image', 'prune', '-f'], { stdio: 'ignore' });
          const kept = entries('tracegate-image-');
          dropEntries('tracegate-image-');
          rows.push([kind, round, await job({ ...inputs, 'image-cache': 'off' }, action)]);
          github.cache.push(...kept);
        } else rows.push([kind, round, await job(inputs, action)]);
      }
    }
    console.log(
      `| images | round | built / loaded | getting the images | oracles harvested | containers | wall |`,
    );
    console.log(`|---|---:|---:|---:|---:|---:|---:|`);
    for (const [kind, round, r] of rows)
      console.log(
        `| ${kind} | ${round} | ${r.built.length} / ${r.loaded} | ${r.imageSeconds.toFixed(1)} s | ${r.harvested} | ${r.containers} | ${r.seconds.toFixed(1)} s |`,
      );
    const mean = (kind, of = (r) => r.seconds) => {
      const list = rows.filter((r) => r[0] === kind).map((r) => of(r[2]));
      return list.reduce((a, b) => a + b, 0) / list.length;
    };
    const gettingImages = (r) => r.imageSeconds;
    console.log(
      `\nrebuilt ÷ cached, getting the images: ${(mean('rebuilt', gettingImages) / mean('cached', gettingImages)).toFixed(2)}×; ` +
        `wall time: ${(mean('rebuilt') / mean('cached')).toFixed(2)}×; ` +
        `${images.length} image entries ${mb(bytes)} for images of ${mb(whole)} (base layers left out)`,
    );
  } finally {
    execFileSync('docker', ['rmi', '-f', base, ...builtTags], { stdio: 'ignore' });
  }
}

/** A history job, with the size of the oracle entry it saved. */
async function push(inputs, action) {
  const r = await job(inputs, action);
  return { ...r, entryBytes: entries('tracegate-v2-').at(-1)?.blob.length ?? 0 };
}

async function historyMode() {
  const { action, suite } = copies();
  const base = ownBase();
  const inputs = { instances: suite, 'base-image': base, sample: '' };
  const rows = [];
  try {
    rows.push(['1: cold (the service empty)', await push(inputs, action)]);
    builtTags.push(...rows[0][1].built);
    for (let i = 2; i <= 11; i++) rows.push([`${i}: nothing changed`, await push(inputs, action)]);
    addInstances(suite);
    rows.push(['12: five instances added', await push(inputs, action)]);
    appendFileSync(join(action, 'tracer', 'harvest.py'), '\n# a tracer change\n');
    rows.push(['13: the tracer changed', await push(inputs, action)]);
    console.log(
      `| push | restored | oracles from cache / harvested | containers | wall | entry saved |`,
    );
    console.log(`|---|---|---:|---:|---:|---:|`);
    for (const [what, r] of rows)
      console.log(
        `| ${what} | ${r.restored ? 'yes' : 'no'} | ${r.cached} / ${r.harvested} | ${r.containers} | ${r.seconds.toFixed(1)} s | ${mb(r.entryBytes)} |`,
      );
    const oracle = entries('tracegate-v2-');
    console.log(
      `\n${oracle.length} oracle entries; the last ${mb(oracle.at(-1).blob.length)} for ` +
        `${rows.at(-1)[1].cached + rows.at(-1)[1].harvested} instances`,
    );
  } finally {
    execFileSync('docker', ['rmi', '-f', base, ...builtTags], { stdio: 'ignore' });
  }
}

try {
  if (values.mode === 'images') await imagesMode();
  else if (values.mode === 'history') await historyMode();
  else await warmMode();
} finally {
  await github.stop();
  await model.close();
  rmSync(work, { recursive: true, force: true });
}

async function warmMode() {
  github.cache.length = 0;
  await job(); // warm-up: images built
  const rows = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    github.cache.length = 0; // the service forgets: a cold runner
    rows.push(['cold', round, await job()]);
    rows.push(['warm', round, await job()]); // finds the entry the cold job saved
  }
  const entry = entries('tracegate-v2-').at(-1);
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
}
