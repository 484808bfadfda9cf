#!/usr/bin/env node
// How stable the world-model oracles are on this machine: the bundle's W1-W4 instances harvested
// twice, cold, one harvest after the other (each itself two runs side by side, which must agree within
// the recorded band). Prints a markdown table for docs/world-model.md: identical outcomes and top
// profile entries between the harvests, and the ratios of peak memory and wall time (between the two
// harvests, between the two runs of one harvest, and the spread of the five clean runs of W3).
// Usage: node scripts/world-stability.mjs [--instances DIR]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--instances');
const instances = at >= 0 ? args[at + 1] : join(root, 'instances');
const cli = join(root, 'dist', 'cli', 'index.js');

function harvest() {
  const cache = mkdtempSync(join(tmpdir(), 'tg-world-stability-'));
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [cli, 'harvest', '--instances', instances, '--categories', 'W1,W2,W3,W4', '--cache', cache],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  console.error(`${run.stdout.split('\n')[0]} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  for (const line of run.stderr.split('\n')) {
    const failed = /^ {2}(\S+): (invalid|error|timeout) — (.*)$/.exec(line);
    if (failed) console.error(`  ${failed[1]}: ${failed[2]} — ${failed[3].slice(0, 160)}`);
  }
  const oracles = new Map();
  for (const key of readdirSync(join(cache, 'oracles'))) {
    try {
      const o = JSON.parse(readFileSync(join(cache, 'oracles', key, 'oracle.json'), 'utf8'));
      oracles.set(o.meta.instance_id, o);
    } catch {
      // not an oracle entry
    }
  }
  return oracles;
}

const ratio = (a, b) => Math.max(a, b) / Math.max(Math.min(a, b), 1e-9);
function quantiles(values) {
  const s = [...values].sort((x, y) => x - y);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return s.length ? { n: s.length, median: q(0.5), p90: q(0.9), max: s[s.length - 1] } : { n: 0 };
}
const fmt = (q, digits = 3) =>
  q.n
    ? `${q.n} | ${q.median.toFixed(digits)} | ${q.p90.toFixed(digits)} | ${q.max.toFixed(digits)}`
    : '0 | — | — | —';

const a = harvest();
const b = harvest();
const both = [...a.keys()].filter((id) => b.has(id));
const of = (kind) => both.filter((id) => a.get(id).question_kind === kind);
const value = (o) => Object.values(o.oracle_answer)[0];
const same = (ids, f) => ids.filter((id) => f(a.get(id)) === f(b.get(id))).length;
const tops = (o) =>
  JSON.stringify(
    Object.keys(o.oracle_answer)
      .sort()
      .map((k) => o.oracle_answer[k][0] ?? null),
  );

const lines = [
  `Harvested: ${a.size} and ${b.size} of the bundle's world-model instances; ${both.length} in both.`,
  '',
  '| kind | instances | identical between harvests |',
  '| --- | ---: | ---: |',
  `| W1 outcome | ${of('W1_Outcome').length} | ${same(of('W1_Outcome'), (o) => JSON.stringify(o.oracle_answer))} |`,
  `| W4 top entry of every list | ${of('W4_Profile').length} | ${same(of('W4_Profile'), tops)} |`,
  '',
  '| ratio (larger / smaller) | n | median | p90 | max |',
  '| --- | ---: | ---: | ---: | ---: |',
];
const inBand = (kind) =>
  of(kind).filter((id) => {
    const [x, y] = [value(a.get(id)), value(b.get(id))];
    const band = a.get(id).meta.measurement?.band ?? { ratio: 1, floor: 0 };
    return Math.abs(x - y) <= band.floor || Math.max(x, y) <= Math.min(x, y) * band.ratio;
  }).length;
lines.splice(
  6,
  0,
  `| W2 peak within its band (1.25× or 64 KiB) | ${of('W2_PeakMemory').length} | ${inBand('W2_PeakMemory')} |`,
  `| W3 wall time within its band (2× or 2 ms) | ${of('W3_WallTime').length} | ${inBand('W3_WallTime')} |`,
);
for (const [kind, label] of [
  ['W2_PeakMemory', 'W2 peak, harvest 1 vs 2'],
  ['W3_WallTime', 'W3 wall time, harvest 1 vs 2'],
]) {
  lines.push(
    `| ${label} | ${fmt(quantiles(of(kind).map((id) => ratio(value(a.get(id)), value(b.get(id))))))} |`,
  );
  const within = of(kind).flatMap((id) => {
    const h = a.get(id).meta.measurement?.harvests;
    return Array.isArray(h) && h.length === 2
      ? [ratio(Object.values(h[0])[0], Object.values(h[1])[0])]
      : [];
  });
  lines.push(`| ${label.split(',')[0]}, the two runs of one harvest | ${fmt(quantiles(within))} |`);
}
const spreads = of('W3_WallTime').flatMap((id) => {
  const w = a.get(id).meta.measurement?.wall_ms;
  return w ? [w.max / Math.max(w.min, 1e-9)] : [];
});
lines.push(`| W3 wall time, slowest / fastest of the 5 clean runs | ${fmt(quantiles(spreads))} |`);
console.log(lines.join('\n'));
