#!/usr/bin/env node
// Records the leak audit's fixture (test/unit/leak-audit.test.ts) from a real harvest: a stratified,
// seeded sample of the bundle's harvested items — up to PER_KIND of each kind the audit covers
// (B1/B2 are scored by running replies: not audited), round-robin over packages — each as its
// instance (id, kind, tests) and its cached oracle entry exactly as the harvest stored it. Test
// files shared by several entries are stored once. Nothing is written by hand.
// Usage: node dist/cli/index.js harvest --cache DIR   (the whole bundle, or at least the sample)
//        node scripts/record-audit-fixture.mjs DIR [PER_KIND]
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');
const [cache, perKindArg] = process.argv.slice(2);
if (!cache) {
  console.error('usage: node scripts/record-audit-fixture.mjs CACHE_DIR [PER_KIND]');
  process.exit(2);
}
const PER_KIND = Number(perKindArg ?? 20);
const SEED = 'leak-audit-1';
const sha = (text) => createHash('sha256').update(text).digest('hex');

function* instanceFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) yield* instanceFiles(join(dir, e.name));
    else if (e.name.endsWith('.instance.json')) yield join(dir, e.name);
  }
}
const instances = new Map();
for (const file of instanceFiles(join(root, 'instances'))) {
  const i = JSON.parse(readFileSync(file, 'utf8'));
  instances.set(i.id, { id: i.id, kind: i.kind, tests: i.tests, environment: i.environment });
}

const oracles = join(cache, 'oracles');
const entries = new Map();
for (const key of readdirSync(oracles)) {
  try {
    const oracle = JSON.parse(readFileSync(join(oracles, key, 'oracle.json'), 'utf8'));
    const context = JSON.parse(readFileSync(join(oracles, key, 'context.json'), 'utf8'));
    const id = oracle.meta.instance_id;
    const seen = entries.get(id);
    if (instances.has(id) && (!seen || seen.oracle.meta.harvested_at < oracle.meta.harvested_at))
      entries.set(id, { oracle, context });
  } catch {
    // an entry being written or not one: not sampled
  }
}

const byKind = new Map();
for (const id of entries.keys()) {
  const { kind, environment } = instances.get(id);
  if (/^B[12]_/.test(kind)) continue;
  const packages = byKind.get(kind) ?? new Map();
  const list = packages.get(environment) ?? [];
  list.push(id);
  packages.set(environment, list);
  byKind.set(kind, packages);
}
const sample = [];
for (const kind of [...byKind.keys()].sort()) {
  const queues = [...byKind.get(kind).entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, ids]) => ids.sort((a, b) => (sha(SEED + a) < sha(SEED + b) ? -1 : 1)));
  const picked = [];
  while (picked.length < PER_KIND && queues.some((q) => q.length))
    for (const q of queues) if (q.length && picked.length < PER_KIND) picked.push(q.shift());
  sample.push(...picked.sort());
}

const sources = {};
const items = sample.map((id) => {
  const { oracle, context } = entries.get(id);
  const tests = (context.tests ?? []).map((t) => {
    const ref = sha(t.source).slice(0, 16);
    sources[ref] = t.source;
    return { name: t.name, source: ref };
  });
  const { id: name, kind, tests: nodes } = instances.get(id);
  return {
    instance: { id: name, kind, tests: nodes },
    entry: { oracle, context: { ...context, tests } },
  };
});
const out = join(root, 'test', 'fixtures', 'audit', 'harvested.json.gz');
const text = JSON.stringify({ per_kind: PER_KIND, seed: SEED, sources, items });
writeFileSync(out, gzipSync(text, { level: 9 }));
console.error(
  `record-audit-fixture: ${items.length} items over ${byKind.size} kinds, ` +
    `${(text.length / 1e6).toFixed(1)} MB → ${out}`,
);
