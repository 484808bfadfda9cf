#!/usr/bin/env node
// Are two harvests' oracles the same, byte for byte? For a change that must not move an answer
// (a faster tracer, a new cache layout): harvest the same selection with each tree into its own
// cache, then
//
//   node scripts/compare-oracles.mjs CACHE_A CACHE_B [--contexts]
//
// Each cache's oracles/<key>/oracle.json is matched by its instance (meta.instance_id and
// instance_hash); the question, its template and the oracle's answer are compared as bytes. The
// world-model kinds' answers are measurements: they are counted apart (`measured_*`), since two
// harvests of one tree may differ there too. --contexts compares the prompts' context.json too (the code shown beside the question).
// Exit 1 when an oracle differs or one side lacks one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const contexts = args.includes('--contexts');
const [a, b] = args.filter((x) => !x.startsWith('--'));
if (!a || !b) {
  console.error('usage: node scripts/compare-oracles.mjs CACHE_A CACHE_B [--contexts]');
  process.exit(2);
}

/** {identity: {oracle: text, context: text}} of one cache. */
function load(cache) {
  const root = join(cache, 'oracles');
  if (!existsSync(root)) {
    console.error(
      `compare-oracles: ${cache} holds no oracles/ directory: is it a tracegate cache?`,
    );
    process.exit(2);
  }
  const found = new Map();
  for (const key of readdirSync(root)) {
    const file = join(root, key, 'oracle.json');
    if (!existsSync(file)) continue;
    const oracle = JSON.parse(readFileSync(file, 'utf8'));
    const meta = oracle.meta ?? {};
    const identity = JSON.stringify([meta.instance_id, meta.instance_hash]);
    const contextFile = join(root, key, 'context.json');
    found.set(identity, {
      measured: meta.measurement !== undefined,
      oracle: JSON.stringify([
        oracle.question_kind,
        oracle.question,
        oracle.template_answer,
        oracle.oracle_answer,
      ]),
      context: existsSync(contextFile) ? readFileSync(contextFile, 'utf8') : '',
    });
  }
  return found;
}

const left = load(a);
const right = load(b);
const differ = [];
const measuredDiffer = [];
const contextDiffer = [];
const onlyLeft = [...left.keys()].filter((k) => !right.has(k));
const onlyRight = [...right.keys()].filter((k) => !left.has(k));
let same = 0;
let measuredSame = 0;
for (const [identity, one] of left) {
  const other = right.get(identity);
  if (!other) continue;
  if (one.measured) {
    if (one.oracle === other.oracle) measuredSame += 1;
    else measuredDiffer.push(identity);
  } else if (one.oracle === other.oracle) same += 1;
  else differ.push(identity);
  if (contexts && one.context !== other.context) contextDiffer.push(identity);
}
console.log(
  JSON.stringify(
    {
      compared: same + differ.length,
      identical: same,
      differing: differ,
      measured_compared: measuredSame + measuredDiffer.length,
      measured_identical: measuredSame,
      measured_differing: measuredDiffer,
      only_in_a: onlyLeft,
      only_in_b: onlyRight,
      ...(contexts ? { contexts_differing: contextDiffer } : {}),
    },
    null,
    2,
  ),
);
process.exit(differ.length || onlyLeft.length || onlyRight.length ? 1 : 0);
