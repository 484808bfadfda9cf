#!/usr/bin/env node
// What `--context repo` costs per item against the default context (`slice`), on one seeded sample
// of the bundle, measured with the reference agent: the demo model on loopback, which in repo mode
// reads its target with one read_file call and then answers (src/adapters/heuristic-model/agent.ts).
// Both runs share one cache (the oracles harvested once, the source views exported once) and ask the
// same items; the order alternates over pairs (slice first, then repo first) so this machine's drift
// falls on both. Tokens are the demo server's estimate (characters / 4 of what each request sent and
// got), not a tokenizer's: a real model's counts differ, its turns depend on what it decides to read.
//
//   node scripts/bench-repo-tools.mjs [--sample 96] [--seed 1] [--categories S,M] [--pairs 1] [--keep DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileForBench } from './compile-helper.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '96' },
    seed: { type: 'string', default: '1' },
    categories: { type: 'string' },
    pairs: { type: 'string', default: '1' },
    keep: { type: 'string' },
  },
});
const { startHeuristicServer, HEURISTIC_MODEL } = await import(
  compileForBench(root, 'tracegate-bench-repo-tools', 'src/adapters/heuristic-model/server.ts')
);
const cli = join(root, 'dist', 'cli', 'index.js');
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'tg-bench-repo-'));
const cache = join(work, 'cache');
const model = await startHeuristicServer();
const selection = [
  '--instances',
  join(root, 'instances'),
  '--sample',
  values.sample,
  '--seed',
  values.seed,
];
if (values.categories) selection.push('--categories', values.categories);

/** One run in `mode` (a child process: this one serves the model); its results and its wall time. */
async function run(mode, n) {
  const out = join(work, `${mode}-${n}`);
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [
      cli,
      'run',
      ...selection,
      ...['--endpoint', model.url, '--model', HEURISTIC_MODEL, '--context', mode],
      ...['--cache', cache, '--out', out, '--concurrency', '4'],
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const status = await new Promise((resolve) => child.on('close', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (status !== 0) throw new Error(`${mode} run exited ${status}:\n${stderr}`);
  return { results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')), seconds };
}

// The harvest and the views, once, outside the measured runs.
await run('repo', 'warm-up');
const measured = { slice: [], repo: [] };
for (let pair = 0; pair < Number(values.pairs); pair++)
  for (const mode of pair % 2 ? ['repo', 'slice'] : ['slice', 'repo'])
    measured[mode].push(await run(mode, pair));
await model.close();

/** Per kind: items, tokens in and out per item, requests and tool calls per item, accuracy. */
function perKind({ results }) {
  const kinds = {};
  for (const r of results.instances.filter((r) => r.scored && !r.infrastructure)) {
    const k = (kinds[r.kind] ??= {
      items: 0,
      tokensIn: 0,
      tokensOut: 0,
      turns: 0,
      calls: 0,
      correct: 0,
    });
    k.items++;
    k.tokensIn += r.tokensIn;
    k.tokensOut += r.tokensOut;
    k.turns += r.transcript ? r.transcript.turns.length : 1;
    k.calls += r.transcript ? r.transcript.toolCalls : 0;
    k.correct += r.correct ? 1 : 0;
  }
  return kinds;
}
const slice = perKind(measured.slice[0]);
const repo = perKind(measured.repo[0]);
const each = (x, n) => (n ? x / n : 0);
const rows = Object.keys(slice)
  .sort()
  .map((kind) => {
    const s = slice[kind];
    const r = repo[kind] ?? { items: 0, tokensIn: 0, tokensOut: 0, turns: 0, calls: 0, correct: 0 };
    return (
      `| ${kind} | ${s.items} | ${Math.round(each(s.tokensIn, s.items))} | ${Math.round(each(r.tokensIn, r.items))} | ` +
      `${each(r.tokensIn, r.items) && each(s.tokensIn, s.items) ? (each(r.tokensIn, r.items) / each(s.tokensIn, s.items)).toFixed(2) : '–'} | ` +
      `${each(r.turns, r.items).toFixed(1)} | ${each(r.calls, r.items).toFixed(1)} | ` +
      `${Math.round((100 * s.correct) / s.items)}% / ${r.items ? Math.round((100 * r.correct) / r.items) : 0}% |`
    );
  });
const total = (kinds, f) => Object.values(kinds).reduce((n, k) => n + f(k), 0);
const items = total(slice, (k) => k.items);
console.log(
  `sample ${values.sample} (seed ${values.seed}${values.categories ? `, ${values.categories}` : ''}), ${items} answered items`,
);
console.log(
  '| kind | items | tokens in / item, slice | tokens in / item, repo | repo / slice | requests / item, repo | tool calls / item, repo | accuracy slice / repo |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(row);
const perItem = (kinds, f) =>
  each(
    total(kinds, f),
    total(kinds, (k) => k.items),
  );
console.log(
  `| all | ${items} | ${Math.round(perItem(slice, (k) => k.tokensIn))} | ${Math.round(perItem(repo, (k) => k.tokensIn))} | ` +
    `${(perItem(repo, (k) => k.tokensIn) / perItem(slice, (k) => k.tokensIn)).toFixed(2)} | ` +
    `${perItem(repo, (k) => k.turns).toFixed(1)} | ${perItem(repo, (k) => k.calls).toFixed(1)} | ` +
    `${Math.round(
      100 *
        each(
          total(slice, (k) => k.correct),
          items,
        ),
    )}% / ${Math.round(
      100 *
        each(
          total(repo, (k) => k.correct),
          total(repo, (k) => k.items),
        ),
    )}% |`,
);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `wall time of a warm run (oracles and views cached): slice ${mean(measured.slice.map((m) => m.seconds)).toFixed(1)} s, ` +
    `repo ${mean(measured.repo.map((m) => m.seconds)).toFixed(1)} s, ratio ` +
    `${(mean(measured.repo.map((m) => m.seconds)) / mean(measured.slice.map((m) => m.seconds))).toFixed(2)}`,
);
