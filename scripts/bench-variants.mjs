#!/usr/bin/env node
// The cost and yield of fresh variants, measured side by side in one run: the harvest of a seeded
// sample's originals alone (A: `tracegate harvest`) against the same sample with a variant searched
// for every instance (B: `tracegate demo --variants "add N"`, which harvests the originals, the
// searches and the candidates, then answers with the built-in demo model on loopback), each from an
// empty cache, the environment images built once before (a warm-up harvest into a throwaway cache).
// Pairs alternate their order (A B, B A, ...) so drift of this machine falls on both sides.
// After the last pair: B's variant yield (valid share, per kind, drop reasons from results.json) and
// how hard its variants are (scripts/variant-hardness.mjs: answered with the originals' oracles).
//
//   node scripts/bench-variants.mjs [--sample 200] [--seed 1] [--epoch 1] [--pairs 1] [--keep DIR]
//                                   [--categories S,M]   (the traced kinds only: every item can vary)
//                                   [--no-warm-up]   (the environment images are built already)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '200' },
    categories: { type: 'string' },
    seed: { type: 'string', default: '1' },
    epoch: { type: 'string', default: '1' },
    pairs: { type: 'string', default: '1' },
    keep: { type: 'string' },
    'no-warm-up': { type: 'boolean', default: false },
  },
});
const cli = join(root, 'dist', 'cli', 'index.js');
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'tg-bench-variants-'));
mkdirSync(work, { recursive: true });
const selection = ['--instances', join(root, 'instances'), '--sample', values.sample];
if (values.categories) selection.push('--categories', values.categories);
selection.push('--seed', values.seed);

function timed(label, args) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0 && !(label.startsWith('B') && run.status === 1)) {
    // B may end in a failing verdict (exit 1): the demo model is weak; anything else is a broken run.
    throw new Error(`${label} exited ${run.status}:\n${run.stderr.slice(-4000)}`);
  }
  // The harvest's own time: every "Oracles: n/n … in T" line of the first checkpoint (a demo asks
  // three checkpoints; the later two find every oracle cached), the originals' batch and the
  // candidate rounds alike.
  const firstCheckpoint = run.stderr.split('== Demo: the regressed checkpoint')[0];
  const harvest = [
    ...firstCheckpoint.matchAll(
      /^Oracles: \d+\/\d+ instances \(100%\) in (?:(\d+) min )?(\d+) s$/gm,
    ),
  ]
    .map((m) => Number(m[1] ?? 0) * 60 + Number(m[2]))
    .reduce((a, b) => a + b, 0);
  process.stderr.write(`${label}: ${seconds.toFixed(1)} s (harvest ${harvest} s)\n`);
  return { seconds, harvest };
}

const fresh = (name) => {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  return dir;
};
const originals = (i) => ['harvest', ...selection, '--cache', fresh(`cache-a${i}`)];
const withVariants = (i) => [
  'demo',
  ...selection,
  '--variants',
  `add ${values.sample}`,
  '--variant-epoch',
  values.epoch,
  '--cache',
  fresh(`cache-b${i}`),
  '--out',
  fresh(`out-b${i}`),
];

if (!values['no-warm-up']) timed('warm-up (environment images)', originals('-warm'));
const rows = [];
for (let i = 0; i < Number(values.pairs); i++) {
  const pair = {};
  const order = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  for (const side of order)
    pair[side] =
      side === 'A'
        ? timed(`A${i} originals`, originals(i))
        : timed(`B${i} + variants`, withVariants(i));
  rows.push(pair);
}

const fmt = (s) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
console.log(
  '| pair | order | originals (A): command / harvest | with variants (B): command / harvest | B / A: command / harvest |',
);
console.log('|---:|---|---:|---:|---:|');
rows.forEach((p, i) =>
  console.log(
    `| ${i + 1} | ${i % 2 === 0 ? 'A B' : 'B A'} | ${fmt(p.A.seconds)} / ${fmt(p.A.harvest)} | ` +
      `${fmt(p.B.seconds)} / ${fmt(p.B.harvest)} | ${(p.B.seconds / p.A.seconds).toFixed(2)}× / ` +
      `**${(p.B.harvest / p.A.harvest).toFixed(2)}×** |`,
  ),
);
const last = join(work, `out-b${rows.length - 1}`, 'baseline'); // the demo's first checkpoint
const results = JSON.parse(readFileSync(join(last, 'results.json'), 'utf8'));
const v = results.variants;
const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');
const reasons = (dropped) =>
  Object.entries(dropped)
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ') || '—';
console.log(`\nEpoch ${v.epoch}: **${v.valid} of ${v.tried} valid (${pct(v.valid, v.tried)})**`);
console.log(`dropped: ${reasons(v.dropped)}; cannot vary: ${reasons(v.unvariable ?? {})}`);
// Easier drops by the component that failed them (results.json's `drops` name each).
const lower = {};
for (const d of v.drops ?? []) {
  const on = d.rule === 'easier' && /on (\w+) \(/.exec(d.detail)?.[1];
  if (on) lower[on] = (lower[on] ?? 0) + 1;
}
if (Object.keys(lower).length) console.log(`easier on: ${reasons(lower)}`);
console.log('\n| kind | searched | valid | share | dropped |');
console.log('|---|---:|---:|---:|---|');
for (const [kind, k] of Object.entries(v.byKind ?? {}).sort())
  console.log(
    `| ${kind} | ${k.tried} | ${k.valid} | ${pct(k.valid, k.tried)} | ${reasons(k.dropped)} |`,
  );
const hardness = spawnSync(
  process.execPath,
  [join(root, 'scripts', 'variant-hardness.mjs'), last],
  {
    encoding: 'utf8',
  },
);
console.log(`\n${hardness.stdout}${hardness.stderr}`);
if (!values.keep) rmSync(work, { recursive: true, force: true });
