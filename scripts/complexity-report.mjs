#!/usr/bin/env node
// How hard are a harvest's items? Per kind, the medians of the items' intrinsic complexity (the
// tracer's queries/complexity.py, stored in each oracle's meta) and of their answers' size:
//
//   node scripts/complexity-report.mjs CACHE [--markdown]
//
// CACHE is a tracegate cache (its oracles/<key>/oracle.json). Variants (`<id>@v<epoch>`) are
// reported apart, beside their originals: the share of pairs whose variant is at least as complex
// on every component (the variant screen's rule) and the medians of both. Oracles without a
// complexity (world-model kinds, earlier tracers) are counted, not scored.
// docs/benchmark-validity.md ("Complexity") holds the figures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const [cache] = args.filter((x) => !x.startsWith('--'));
if (!cache) {
  console.error('usage: node scripts/complexity-report.mjs CACHE [--markdown]');
  process.exit(2);
}
if (!existsSync(join(cache, 'oracles'))) {
  console.error(
    `complexity-report: ${cache} holds no oracles/ directory: give a tracegate cache (the --cache of a harvest or run)`,
  );
  process.exit(2);
}

const COMPONENTS = ['score', 'semantic', 'answer', 'navigation'];
const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Every oracle of the cache: {id, kind, complexity?, size (the answer's compact JSON characters)}. */
const items = [];
for (const key of readdirSync(join(cache, 'oracles'))) {
  const file = join(cache, 'oracles', key, 'oracle.json');
  if (!existsSync(file)) continue;
  const oracle = JSON.parse(readFileSync(file, 'utf8'));
  const complexity = oracle.meta.complexity;
  // An entry edited by hand or by a hostile suite is counted, never scored (the cache refuses it too).
  const sound =
    complexity &&
    COMPONENTS.every(
      (c) => typeof complexity[c] === 'number' && complexity[c] >= 0 && complexity[c] <= 10,
    );
  if (complexity && !sound)
    console.error(`complexity-report: ${key}: a complexity out of range, not scored`);
  items.push({
    id: oracle.meta.instance_id,
    kind: oracle.question_kind,
    complexity: sound ? complexity : undefined,
    size: JSON.stringify(oracle.oracle_answer).length,
  });
}
const originals = items.filter((i) => !i.id.includes('@v'));
const variants = items.filter((i) => i.id.includes('@v'));
const byId = new Map(originals.map((i) => [i.id, i]));

/** Whether item `i` is in row `kind`: a kind, a family of kinds by prefix (`S*`: single-test), or all. */
const inRow = (kind, i) =>
  kind === 'all' || i.kind === kind || (kind.endsWith('*') && i.kind.startsWith(kind.slice(0, -1)));

/** One row per kind, then the single-test, multi-test and bug kinds, then all: n, unscored, the medians. */
function rows(list) {
  const kinds = [...new Set(list.map((i) => i.kind))].sort();
  const families = ['S*', 'M*', 'B*'].filter((f) => list.some((i) => inRow(f, i)));
  return [...kinds, ...families, 'all'].map((kind) => {
    const of = list.filter((i) => inRow(kind, i));
    const scored = of.filter((i) => i.complexity);
    const row = { kind, n: of.length, unscored: of.length - scored.length };
    for (const c of COMPONENTS) row[c] = median(scored.map((i) => i.complexity[c]));
    row.size = median(of.map((i) => i.size));
    return row;
  });
}

/** Variant pairs per kind: how many, how many at least as complex on every component. */
function pairs() {
  const found = variants.flatMap((v) => {
    const original = byId.get(v.id.replace(/@v\d+$/, ''));
    return original?.complexity && v.complexity ? [{ v, original }] : [];
  });
  const kinds = [...new Set(found.map((p) => p.v.kind))].sort();
  return [...kinds, 'all'].map((kind) => {
    const of = found.filter((p) => kind === 'all' || p.v.kind === kind);
    const atLeast = of.filter(({ v, original }) =>
      ['semantic', 'answer', 'navigation'].every((c) => v.complexity[c] >= original.complexity[c]),
    ).length;
    return {
      kind,
      pairs: of.length,
      atLeast,
      original: median(of.map((p) => p.original.complexity.score)),
      variant: median(of.map((p) => p.v.complexity.score)),
    };
  });
}

const fmt = (x) => (Number.isNaN(x) ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(2));
const table = rows(originals);
const pairRows = pairs();
if (markdown) {
  console.log(
    '| kind | items | no complexity | score | semantic | answer | navigation | answer size |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of table)
    console.log(
      `| ${r.kind} | ${r.n} | ${r.unscored} | ${COMPONENTS.map((c) => fmt(r[c])).join(' | ')} | ${fmt(r.size)} |`,
    );
  if (pairRows.at(-1).pairs) {
    console.log(
      '\n| kind | variant pairs | at least as complex on every component | original score | variant score |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const p of pairRows)
      console.log(
        `| ${p.kind} | ${p.pairs} | ${p.atLeast} (${((100 * p.atLeast) / p.pairs).toFixed(0)}%) | ${fmt(p.original)} | ${fmt(p.variant)} |`,
      );
  }
} else console.log(JSON.stringify({ originals: table, variants: pairRows }, null, 2));
