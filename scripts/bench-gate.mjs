// The gate's operating characteristics by seeded simulation: how often it
// fails, passes or cannot decide, for honest re-runs (A/A) and for real drops,
// with and without top-up. The model of two runs is test/helpers/gate-sim.ts
// (the same one test/unit/gate-sim.test.ts runs at a few hundred replicates);
// the gate is the real one from src/, compiled to a scratch directory with tsc.
//
//   node scripts/bench-gate.mjs [--replicates 2000] [--seed 20261201] [--write]
//
// --write replaces the table in docs/gate.md (between its bench-gate markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileForBench, writeBetweenMarkers } from './compile-helper.mjs';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    replicates: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '20261201' },
    write: { type: 'boolean', default: false },
  },
});
const R = Number(values.replicates);
const seed = Number(values.seed);

const { simulate, SIM_POLICY } = await import(
  compileForBench(root, 'tracegate-bench-gate', 'test/helpers/gate-sim.ts')
);

const none = { ...SIM_POLICY, clusterBy: 'none' };
const perKind = { ...SIM_POLICY, gate: 'per-kind' };
const rows = [
  ['A/A', 'independent', { items: 200, model: 'independent', drop: 0 }],
  ['A/A', 'neighbouring', { items: 200, model: 'neighbouring', drop: 0 }],
  ['A/A', 'shifted, clusters of 4', { items: 200, model: 'shifted', drop: 0 }],
  ['A/A', 'shifted, clusters of 20', { items: 200, model: 'shifted', drop: 0, clusterSize: 20 }],
  [
    'A/A',
    'shifted, clusters of 20, **cluster-by none**',
    { items: 200, model: 'shifted', drop: 0, clusterSize: 20 },
    none,
  ],
  ['A/A', 'neighbouring, 1000 items', { items: 1000, model: 'neighbouring', drop: 0 }],
  ['−10 pt overall', 'neighbouring', { items: 200, model: 'neighbouring', drop: 0.1 }],
  ['−10 pt overall', 'independent', { items: 200, model: 'independent', drop: 0.1 }],
  ['−5 pt overall', 'neighbouring, 1000 items', { items: 1000, model: 'neighbouring', drop: 0.05 }],
  ['−5 pt overall', 'independent, 1000 items', { items: 1000, model: 'independent', drop: 0.05 }],
  [
    '−30 pt in one kind',
    'neighbouring',
    { items: 200, model: 'neighbouring', drop: 0.3, dropKind: 1 },
  ],
  [
    '−30 pt in one kind, **gate per-kind**',
    'neighbouring',
    { items: 200, model: 'neighbouring', drop: 0.3, dropKind: 1 },
    perKind,
  ],
  [
    '−30 pt in one kind',
    'independent',
    { items: 200, model: 'independent', drop: 0.3, dropKind: 1 },
  ],
  ['A/A, top-up 200', 'independent', { items: 200, model: 'independent', drop: 0, topUp: 200 }],
  ['A/A, top-up 200', 'neighbouring', { items: 200, model: 'neighbouring', drop: 0, topUp: 200 }],
  [
    '−10 pt, top-up 200',
    'neighbouring',
    { items: 200, model: 'neighbouring', drop: 0.1, topUp: 200 },
  ],
  [
    '−10 pt, top-up 200',
    'independent',
    { items: 200, model: 'independent', drop: 0.1, topUp: 200 },
  ],
  [
    '−5 pt, top-up 200',
    'independent',
    { items: 200, model: 'independent', drop: 0.05, topUp: 200 },
  ],
];

const pc = (x) => `${(x * 100).toFixed(1)}%`;
const lines = [
  `| scenario | runs | items | fail | pass | inconclusive | topped up | lower bound covers |`,
  '|---|---|---:|---:|---:|---:|---:|---:|',
];
const started = Date.now();
for (const [what, model, scenario, policy] of rows) {
  const r = simulate(scenario, R, seed, policy ?? SIM_POLICY);
  lines.push(
    `| ${what} | ${model} | ${scenario.items}${scenario.topUp ? ` + ${scenario.topUp}` : ''} | ${pc(r.fail)} | ${pc(r.pass)} | ${pc(r.inconclusive)} | ${scenario.topUp ? pc(r.toppedUp) : '—'} | ${pc(r.coverage)} |`,
  );
  process.stderr.write('.');
}
process.stderr.write('\n');
const se = (p) => (100 * Math.sqrt((p * (1 - p)) / R)).toFixed(1);
const caption =
  `${R} replicates per row, seed ${seed}, Node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s. ` +
  `Monte Carlo standard error: ±${se(0.05)} points at 5%, ±${se(0.2)} at 80%, ±${se(0.5)} at 50%. ` +
  'Policy: min-drop 0.05, alpha 0.05, cluster-by test, gate overall, max-excluded 0.05 (unless said).';
const table = [...lines, '', caption].join('\n');
console.log(table);

if (values.write) {
  const file = join(root, 'docs', 'gate.md');
  writeBetweenMarkers(readFileSync, writeFileSync, file, 'bench-gate', table);
  console.error(`Wrote the table into ${file}`);
}
