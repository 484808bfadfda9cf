// Baseline resolution from a history of 10,000 entries, side by side: a
// DirHistory on disk and a data branch behind a loopback GitHub (FakeGitHub,
// a real Octokit over real HTTP). Each round is cold: a new store reads and
// parses the index, finds the baseline (a push walking back 5 commits, a PR's
// merge base) and reads its entry. Prints milliseconds; for the branch, the
// time spent inside API calls apart from the rest. Goal: < 1 s beyond the API.
//
//   node scripts/bench-history.mjs [--entries 10000] [--items 40] [--rounds 5]
//
// The modules are the real ones from src/ (and test/helpers/ for the fake),
// compiled to a scratch directory with tsc.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { Buffer } from 'node:buffer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '10000' },
    items: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '5' },
  },
});
const N = Number(values.entries);
const ITEMS = Number(values.items);
const ROUNDS = Number(values.rounds);

// 1. Compile the history modules and the fake GitHub from source.
const out = join(root, 'node_modules', '.cache', 'tracegate-bench-history');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const sources = [
  'src/adapters/history/dir.ts',
  'src/adapters/history/branch.ts',
  'src/adapters/history/baseline.ts',
  'src/adapters/history/commit-graph.ts',
  'src/adapters/history/parse.ts',
  'test/helpers/github-server.ts',
  'test/helpers/history.ts',
];
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    ...['--outDir', out, '--rootDir', root, '--module', 'NodeNext'],
    ...['--moduleResolution', 'NodeNext', '--target', 'ES2022', '--types', 'node'],
    ...['--skipLibCheck', '--strict', '--noCheck'],
    ...sources.map((s) => join(root, s)),
  ],
  { stdio: 'inherit' },
);
// The compiled modules resolve their packages (zod, @actions/github) from the project.
const load = (path) => import(pathToFileURL(join(out, path)).href);
const { DirHistory } = await load('src/adapters/history/dir.js');
const { BranchHistory } = await load('src/adapters/history/branch.js');
const { findBaseline } = await load('src/adapters/history/baseline.js');
const { githubCommitGraph } = await load('src/adapters/history/commit-graph.js');
const { serializeEntry, serializeIndex } = await load('src/adapters/history/parse.js');
const { FakeGitHub } = await load('test/helpers/github-server.js');
const { entry, records, sha, at } = await load('test/helpers/history.js');
const { indexRow, entryPath } = await load('src/contracts/history.js');
const { getOctokit } = await import('@actions/github');

// 2. The history: N commits of one run on main, each an entry of ITEMS items.
const t0 = performance.now();
const instances = [
  ...records('S1_IntraProceduralCFG', '10'.repeat(ITEMS / 4)),
  ...records('S2_Loops', '1100'.repeat(ITEMS / 8)),
];
const files = {};
const rows = [];
const commits = [];
for (let i = 0; i < N; i++) {
  const e = entry(sha(`c${i}`), {
    branch: 'main',
    parent: i ? sha(`c${i - 1}`) : undefined,
    recordedAt: at(i),
    instances,
  });
  files[entryPath(e.name, e.commit)] = serializeEntry(e);
  rows.push(indexRow(e));
  commits.push({ sha: e.commit, parents: i ? [sha(`c${i - 1}`)] : [] });
}
files['index.json'] = serializeIndex(rows);
// Five commits without entries after the newest one: a push walks back through them.
for (let j = 0; j < 5; j++)
  commits.push({ sha: sha(`gap${j}`), parents: [j ? sha(`gap${j - 1}`) : sha(`c${N - 1}`)] });
const head = sha('gap4');
commits.push({ sha: sha('pr'), parents: [sha(`c${N - 3}`)] });

const dir = mkdtempSync(join(tmpdir(), 'tg-bench-history-'));
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}
const github = new FakeGitHub();
const baseUrl = await github.start();
github.repo.seed('tracegate-data', files);
github.repo.addCommits(commits);
github.repo.branches.set('main', head);
const indexBytes = Buffer.byteLength(files['index.json']);
const entryBytes = Buffer.byteLength(files[entryPath('tracegate', sha('c0'))]);
console.log(
  `history: ${N} entries (${ITEMS} items each, ${(entryBytes / 1024).toFixed(1)} KB), index ` +
    `${(indexBytes / 1048576).toFixed(2)} MB; built in ${Math.round(performance.now() - t0)} ms`,
);

// 3. Resolution, cold each round.
const candidate = { prompt: 'p3', scorer: 'tracegate-strict@1' };
const parents = new Map(commits.map((c) => [c.sha, c.parents]));
const localGraph = {
  mergeBase: async (base, h) => (h === sha('pr') ? sha(`c${N - 3}`) : undefined),
  parentsOf: async (s) => parents.get(s) ?? [],
};
const events = {
  push: { kind: 'push', sha: head, branch: 'main' },
  pr: { kind: 'pull_request', number: 1, baseRef: 'main', baseSha: '', headSha: sha('pr') },
};
const expected = { push: sha(`c${N - 1}`), pr: sha(`c${N - 3}`) };

let apiMs = 0;
let apiCalls = 0;
const octokit = getOctokit('bench', { baseUrl });
octokit.hook.wrap('request', async (request, options) => {
  const start = performance.now();
  apiCalls++;
  try {
    return await request(options);
  } finally {
    apiMs += performance.now() - start;
  }
});

/** The goal: baseline resolution under a second beyond the API calls. Exit 1 when missed. */
const GOAL_MS = 1000;
let missed = false;

async function time(makeStore, graph, event, label) {
  const total = [];
  const api = [];
  let calls = 0;
  for (let r = 0; r < ROUNDS; r++) {
    apiMs = 0;
    apiCalls = 0;
    const start = performance.now();
    const { baseline } = await findBaseline({
      store: makeStore(),
      name: 'tracegate',
      event,
      candidate,
      graph,
    });
    total.push(performance.now() - start);
    api.push(apiMs);
    calls = apiCalls;
    if (baseline?.commit !== expected[label.split(' ')[1]])
      throw new Error(`${label}: found ${baseline?.commit}, expected another`);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const t = median(total);
  const a = median(api);
  if (t - a > GOAL_MS) missed = true;
  console.log(
    `${label.padEnd(12)} ${t.toFixed(0).padStart(6)} ms total` +
      (calls
        ? `, ${a.toFixed(0).padStart(5)} ms in ${calls} API calls, ${(t - a).toFixed(0)} ms beyond`
        : ''),
  );
}

const warn = () => {};
const graph = githubCommitGraph(octokit, { owner: 'acme', repo: 'models' });
for (const kind of ['push', 'pr']) {
  await time(() => new DirHistory(dir, warn), localGraph, events[kind], `dir ${kind}`);
  await time(
    () => new BranchHistory(octokit, { owner: 'acme', repo: 'models', warn }),
    graph,
    events[kind],
    `branch ${kind}`,
  );
}

// 4. One more run recorded into the 10,000-entry history (the index rewritten with the row merged).
for (const [label, store] of [
  ['dir record', new DirHistory(dir, warn)],
  ['branch record', new BranchHistory(octokit, { owner: 'acme', repo: 'models', warn })],
]) {
  apiMs = 0;
  apiCalls = 0;
  const start = performance.now();
  await store.record(entry(sha('new'), { branch: 'main', recordedAt: at(N + 1), instances }));
  const t = performance.now() - start;
  console.log(
    `${label.padEnd(14)} ${t.toFixed(0).padStart(4)} ms total` +
      (apiCalls
        ? `, ${apiMs.toFixed(0)} ms in ${apiCalls} API calls, ${(t - apiMs).toFixed(0)} ms beyond`
        : ''),
  );
}
await github.stop();
rmSync(dir, { recursive: true, force: true });
if (missed) {
  console.error(`baseline resolution took more than ${GOAL_MS} ms beyond the API calls`);
  process.exit(1);
}
