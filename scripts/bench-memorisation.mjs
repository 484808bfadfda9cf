// The memorisation flag's operating characteristics by seeded simulation: how often it is raised
// for honest models (A/A: originals and variants equally hard) and for models that recall part or
// all of the published answers. The model is test/helpers/memorisation-sim.ts (the CI test runs it
// at a few hundred replicates); the signal is the real one from src/, compiled with tsc.
//
//   node scripts/bench-memorisation.mjs [--replicates 2000] [--seed 20261202] [--write]
//
// --write replaces the table in docs/generate.md (between its bench-memorisation markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileForBench, writeBetweenMarkers } from './compile-helper.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    replicates: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '20261202' },
    write: { type: 'boolean', default: false },
  },
});
const R = Number(values.replicates);
const seed = Number(values.seed);
const { simulateMemorisation } = await import(
  compileForBench(root, 'tracegate-bench-memorisation', 'test/helpers/memorisation-sim.ts')
);

const rows = [
  ['honest (A/A)', { pairs: 30, model: 'aa' }],
  ['honest (A/A)', { pairs: 100, model: 'aa' }],
  ['honest (A/A)', { pairs: 300, model: 'aa' }],
  ['honest (A/A), clusters of 20', { pairs: 300, model: 'aa', clusterSize: 20 }],
  ['recalls 10% of the originals', { pairs: 100, model: 'memorised', memorised: 0.1 }],
  ['recalls 10% of the originals', { pairs: 300, model: 'memorised', memorised: 0.1 }],
  ['recalls a third of the originals', { pairs: 100, model: 'memorised', memorised: 1 / 3 }],
  ['recalls every original, answers variants with them', { pairs: 30, model: 'recall-only' }],
];
const pc = (x) => `${(x * 100).toFixed(1)}%`;
const lines = ['| model | pairs | flagged | mean original − variant |', '|---|---:|---:|---:|'];
const started = Date.now();
for (const [what, scenario] of rows) {
  const r = simulateMemorisation(scenario, R, seed);
  lines.push(
    `| ${what} | ${scenario.pairs} | ${pc(r.flagged)} | ${(r.meanDifference * 100).toFixed(1)} pp |`,
  );
  process.stderr.write('.');
}
process.stderr.write('\n');
const se = (p) => (100 * Math.sqrt((p * (1 - p)) / R)).toFixed(1);
const caption =
  `${R} replicates per row, seed ${seed}, Node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s. ` +
  `Monte Carlo standard error ±${se(0.05)} points at 5%. Skill Beta(2, 3) per item, clusters of 4 ` +
  '(unless said) sharing skill half the time; the gate policy: alpha 0.05 one-sided, min-drop 0.05, ' +
  'cluster-by test, at least 10 pairs in 5 clusters.';
const table = [...lines, '', caption].join('\n');
console.log(table);
if (values.write) {
  const file = join(root, 'docs', 'generate.md');
  writeBetweenMarkers(readFileSync, writeFileSync, file, 'bench-memorisation', table);
  console.error(`Wrote the table into ${file}`);
}
