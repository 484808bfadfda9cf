#!/usr/bin/env node
// Harder by construction, measured on a real run: every valid variant of a run with `--variants add N`
// answered as a model that memorised the published items would (its original's oracle) and as an echo
// of its own oracle, both scored by `tracegate score` (the scorer a run uses).
// Usage: node scripts/variant-hardness.mjs RUN_OUT_DIR [--scoring strict|swe-flux]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const out = args.find((a) => !a.startsWith('--'));
const scoringAt = args.indexOf('--scoring');
const scoring = scoringAt >= 0 ? args[scoringAt + 1] : 'strict';
if (!out) {
  console.error('usage: node scripts/variant-hardness.mjs RUN_OUT_DIR [--scoring strict|swe-flux]');
  process.exit(2);
}

const records = readFileSync(join(out, 'records.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const byId = new Map(records.map((r) => [r.id, r]));
const pairs = records
  .filter((r) => /@v\d+$/.test(r.id) && r.oracle !== undefined)
  .map((v) => ({ variant: v, original: byId.get(v.id.replace(/@v\d+$/, '')) }))
  .filter(({ original }) => original?.oracle !== undefined);
if (!pairs.length) {
  console.error(
    `${out}/records.jsonl holds no variant beside its original (run with --variants "add N")`,
  );
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'tg-hardness-'));
function score(name, predictionOf) {
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(
    file,
    pairs
      .map(({ variant, original }) =>
        JSON.stringify({
          id: variant.id,
          oracle: variant.oracle,
          prediction: predictionOf(variant, original),
        }),
      )
      .join('\n') + '\n',
  );
  const run = spawnSync(
    process.execPath,
    [join(root, 'dist', 'cli', 'index.js'), 'score', '--scoring', scoring, file],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  if (run.status !== 0) throw new Error(`tracegate score failed: ${run.stderr}`);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).correct === true);
}

try {
  const recall = score('recall', (_v, original) => original.oracle);
  const echo = score('echo', (variant) => variant.oracle);
  const kinds = [...new Set(pairs.map((p) => p.variant.kind))].sort();
  const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`;
  console.log(`${pairs.length} variants beside their originals (${out}), scoring ${scoring}`);
  console.log('| kind | variants | original\u2019s oracle right | own oracle right |');
  console.log('|---|---:|---:|---:|');
  for (const kind of kinds) {
    const idx = pairs.map((p, i) => (p.variant.kind === kind ? i : -1)).filter((i) => i >= 0);
    const r = idx.filter((i) => recall[i]).length;
    const e = idx.filter((i) => echo[i]).length;
    console.log(`| ${kind} | ${idx.length} | ${pct(r, idx.length)} | ${pct(e, idx.length)} |`);
  }
  const r = recall.filter(Boolean).length;
  const e = echo.filter(Boolean).length;
  console.log(
    `| **all** | ${pairs.length} | **${pct(r, pairs.length)}** | **${pct(e, pairs.length)}** |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
