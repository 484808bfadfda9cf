#!/usr/bin/env node
// Whether the measured world-model kinds measure the program, on this machine: the bundle's W2 and W3
// instances harvested cold, first on an otherwise idle machine, then with a CPU-burning process per
// core beside the harvest, one after the other in one run. Prints, per kind: the spread of the oracles
// (largest / smallest, both floored as the scorer floors them), the share of instances the best single
// constant answer passes under the factor-2 rule (and that constant), and the quarantine rate (the two
// harvest runs disagreed beyond the band) of each harvest.
// Usage: node scripts/world-validity.mjs [--instances DIR] [--burners N] [--factor 2]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: join(root, 'instances') },
    burners: { type: 'string', default: String(availableParallelism()) },
    factor: { type: 'string', default: '2' },
  },
});
const cli = join(root, 'dist', 'cli', 'index.js');
const factor = Number(values.factor);
// The scorer's floors (src/families/world/score.ts) and answer fields.
const KINDS = {
  W2_PeakMemory: { field: 'peak_bytes', floor: 10_000, unit: 'bytes' },
  W3_WallTime: { field: 'wall_ms', floor: 0.01, unit: 'ms' },
};

function harvest(label) {
  const cache = mkdtempSync(join(tmpdir(), 'tg-world-validity-'));
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [cli, 'harvest', '--instances', values.instances, '--categories', 'W2,W3', '--cache', cache],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 },
  );
  const seconds = (Date.now() - started) / 1000;
  console.error(`${label}: ${run.stdout.split('\n')[0]} (${seconds.toFixed(0)} s)`);
  const quarantined = new Set();
  const failed = new Map();
  for (const line of run.stderr.split('\n')) {
    const q = /^ {2}(\S+): quarantined/.exec(line);
    if (q) quarantined.add(q[1]);
    const f = /^ {2}(\S+): (invalid|error|timeout) — (.*)$/.exec(line);
    if (f) failed.set(f[1], `${f[2]}: ${f[3].slice(0, 120)}`);
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
  return { oracles, quarantined, failed, seconds };
}

/** The constant passing most values (a window [c/f, c*f]), and how many it passes. */
function bestConstant(xs) {
  const s = [...xs].sort((a, b) => a - b);
  let best = { constant: s[0] ?? 0, passes: 0 };
  for (let i = 0, j = 0; i < s.length; i++) {
    while (j < s.length && s[j] <= s[i] * factor * factor * (1 + 1e-12)) j++;
    if (j - i > best.passes) best = { constant: s[i] * factor, passes: j - i };
  }
  return best;
}

function burn(n) {
  const code = 'for (;;) { let x = 0; for (let i = 0; i < 1e7; i++) x += i; }';
  return Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', code], { stdio: 'ignore' }),
  );
}

const quiet = harvest('idle machine');
const burners = burn(Number(values.burners));
let loaded;
try {
  loaded = harvest(`${burners.length} CPU burner(s) beside it`);
} finally {
  for (const b of burners) b.kill('SIGKILL');
}

const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');
const lines = [
  `| kind | instances | spread (max / min) | best constant (passes, factor ${factor}) | quarantined, idle | quarantined, ${burners.length} burner(s) |`,
  '|---|---:|---:|---:|---:|---:|',
];
for (const [kind, { field, floor, unit }] of Object.entries(KINDS)) {
  const of = (h) => [...h.oracles.values()].filter((o) => o.question_kind === kind);
  const xs = of(quiet).map((o) => Math.max(Number(o.oracle_answer[field]), floor));
  const { constant, passes } = bestConstant(xs);
  const spread = xs.length ? Math.max(...xs) / Math.min(...xs) : 0;
  const asked = (h) =>
    of(h).length +
    [...h.quarantined, ...h.failed.keys()].filter((id) => kindOf(id) === kind).length;
  const quarantinedOf = (h) => [...h.quarantined].filter((id) => kindOf(id) === kind).length;
  lines.push(
    `| ${kind} | ${xs.length} | ${spread.toFixed(0)}× | ${pct(passes, xs.length)} (${constant.toPrecision(3)} ${unit}) | ` +
      `${quarantinedOf(quiet)} of ${asked(quiet)} (${pct(quarantinedOf(quiet), asked(quiet))}) | ` +
      `${quarantinedOf(loaded)} of ${asked(loaded)} (${pct(quarantinedOf(loaded), asked(loaded))}) |`,
  );
}
console.log(lines.join('\n'));
console.log(
  `\nHarvest: ${quiet.seconds.toFixed(0)} s idle, ${loaded.seconds.toFixed(0)} s beside ${burners.length} burner(s).`,
);
const otherFailures = [...quiet.failed, ...loaded.failed];
if (otherFailures.length)
  console.log(
    `Failed (not quarantined): ${otherFailures.map(([id, why]) => `${id} (${why})`).join('; ')}`,
  );

function kindOf(id) {
  // Bundle ids name their kind: <package>-w2-peak-… / <package>-w3-wall-…
  return /-w2-peak-/.test(id) ? 'W2_PeakMemory' : /-w3-wall-/.test(id) ? 'W3_WallTime' : undefined;
}
