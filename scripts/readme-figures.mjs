#!/usr/bin/env node
// The README's demo figures, from a run of the demo: never typed.
//
//   node scripts/readme-figures.mjs            runs the demo (dist/cli) in a temporary directory
//                                              and rewrites the README's block between
//                                              <!-- figures:demo --> and <!-- /figures:demo -->
//   node scripts/readme-figures.mjs --check DIR  DIR is where a demo ran (its tracegate-out/):
//                                              exit 1, printing both, when the README says
//                                              something else (test/integration/demo.test.ts)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(root, 'README.md');
const OPEN = '<!-- figures:demo -->';
const CLOSE = '<!-- /figures:demo -->';

/** `−34.1 pp`, `+2.0 pp`, `±0.0 pp`, as the report writes a change. */
const pp = (x) => {
  const v = (Math.abs(x) * 100).toFixed(1);
  return `${v === '0.0' ? '±' : x < 0 ? '−' : '+'}${v} pp`;
};
const percent = (x) => `${(x * 100).toFixed(1)}%`;
/** A p-value as the report writes it. */
const pValue = (p) => (p < 0.0001 ? '< 0.0001' : `= ${Number(p.toPrecision(2))}`);

/** The block, from the demo's three results files under `out`. */
export function demoBlock(out) {
  const read = (label) => JSON.parse(readFileSync(join(out, label, 'results.json'), 'utf8'));
  const baseline = read('baseline');
  const regressed = read('regressed').comparison;
  const unchanged = read('unchanged').comparison;
  const o = regressed.overall;
  const u = unchanged.overall;
  const items = baseline.summary.total;
  const kinds = Object.keys(baseline.summary.byKind).join(', ');
  return [
    OPEN,
    `The demo harvests click's ${items} ${kinds} items for real and gates three checkpoints of the`,
    `demo model: the baseline scores ${percent(o.baseline)}; the **regressed** checkpoint (its replies`,
    `cut off three times in four) scores ${percent(o.candidate)} and **fails**: ${pp(o.delta)}`,
    `(95% bounds ${pp(o.test.lower)} … ${pp(o.test.upper)}), p ${pValue(o.test.pDropAdjusted)} on`,
    `${o.paired} paired items; the **unchanged** one **passes** (${pp(u.delta)}, lower bound`,
    `${pp(u.test.lower)}, against the demo's minimum drop of ${pp(-regressed.policy.minDrop).slice(1)}).`,
    `<sub>From a run of the demo, written by \`node scripts/readme-figures.mjs\`; a test checks them.</sub>`,
    CLOSE,
  ].join('\n');
}

function readmeBlock(text) {
  const start = text.indexOf(OPEN);
  const end = text.indexOf(CLOSE);
  if (start < 0 || end < start) throw new Error(`README.md has no ${OPEN} … ${CLOSE} block`);
  return { start, end: end + CLOSE.length, block: text.slice(start, end + CLOSE.length) };
}

function main(argv) {
  const text = readFileSync(README, 'utf8');
  const found = readmeBlock(text);
  if (argv[0] === '--check') {
    const block = demoBlock(join(argv[1], 'tracegate-out'));
    if (block === found.block) return 0;
    console.error(`README.md's demo figures differ from this run's:\n--- README\n${found.block}`);
    console.error(`--- this run\n${block}\nRun node scripts/readme-figures.mjs to rewrite them.`);
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tracegate-readme-'));
  const run = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'index.js'), 'demo'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) {
    console.error(`readme-figures: the demo exited ${run.status ?? run.signal}`);
    return 1;
  }
  const block = demoBlock(join(dir, 'tracegate-out'));
  writeFileSync(README, text.slice(0, found.start) + block + text.slice(found.end));
  console.error(
    block === found.block ? 'README.md: figures unchanged' : 'README.md: figures rewritten',
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (error) {
    console.error(`readme-figures: ${error.message}`);
    process.exit(2);
  }
}
