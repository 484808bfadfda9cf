#!/usr/bin/env node
// Did a change that must not move a result move one? Run the same command with each tree into
// its own output directory (e.g. `tracegate demo --out A --history A/history --cache CA ...`),
// then
//
//   node scripts/compare-runs.mjs DIR_A DIR_B [--tracer-moved]
//
// Every results.json, records.jsonl, report.md and history entry under each directory is matched
// by its path and compared after what differs between any two runs of one tree is blanked: the
// clock (startedAt, finishedAt, recordedAt, ISO times in text), latencies, retries, the loopback
// endpoint's port, the order records were appended in, and, with
// --tracer-moved, the tracer's digest (a tracer whose files moved has another digest, by design:
// its oracles are re-harvested, and scripts/compare-oracles.mjs compares those). Prints each
// difference (path, then the first differing line) and a count; exit 1 when any file differs or
// one side lacks it. The world-model kinds' measurements differ between two harvests of one tree:
// select the other kinds (`--categories`) for a byte-for-byte check.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const tracerMoved = args.includes('--tracer-moved');
const [a, b] = args.filter((x) => !x.startsWith('--'));
if (!a || !b) {
  console.error('usage: node scripts/compare-runs.mjs DIR_A DIR_B [--tracer-moved]');
  process.exit(2);
}

/**
 * Keys whose values are the clock's, the network's or the machine's, never the behaviour's: times,
 * latencies, and retries (a transient failure of the loopback server on a loaded machine).
 */
const CLOCK = new Set([
  'startedAt',
  'finishedAt',
  'recordedAt',
  'latencyMs',
  'meanLatencyMs',
  'retries',
  'endpoint',
]);

function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/(\.json|\.jsonl|\.md)$/.test(name)) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out;
}

function blankJson(value, digests) {
  if (Array.isArray(value)) return value.map((v) => blankJson(v, digests));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        CLOCK.has(k)
          ? '<clock>'
          : tracerMoved && k === 'tracer' && typeof v === 'string'
            ? (digests.add(v), '<tracer>')
            : blankJson(v, digests),
      ]),
    );
  return value;
}

/** The file's text with the clock (and the tracer's digest) blanked. */
function normal(dir, file, digests) {
  const text = readFileSync(join(dir, file), 'utf8');
  let out;
  // A run's records are appended as they finish: in the order of its requests' answers.
  if (file.endsWith('.jsonl'))
    out = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.stringify(blankJson(JSON.parse(line), digests)))
      .sort()
      .join('\n');
  else if (file.endsWith('.json'))
    out = JSON.stringify(blankJson(JSON.parse(text), digests), null, 1);
  else out = text;
  out = out
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>')
    .replace(/\b\d+ retries\b/g, '<n> retries');
  for (const digest of digests)
    out = out.split(digest).join('<tracer>').split(digest.slice(0, 12)).join('<tracer>');
  return out;
}

const left = files(a);
const right = files(b);
let differ = 0;
const digests = new Set();
// Digests first (a report names the one its results.json holds).
for (const file of [...left, ...right].filter((f) => f.endsWith('results.json')))
  for (const dir of [a, b]) if (existsSync(join(dir, file))) normal(dir, file, digests);
for (const file of [...new Set([...left, ...right])].sort()) {
  if (!left.includes(file) || !right.includes(file)) {
    console.log(`${file}: only in ${left.includes(file) ? a : b}`);
    differ++;
    continue;
  }
  const x = normal(a, file, digests).split('\n');
  const y = normal(b, file, digests).split('\n');
  const at = x.findIndex((line, i) => line !== y[i]);
  if (at >= 0 || x.length !== y.length) {
    const i = at >= 0 ? at : Math.min(x.length, y.length);
    console.log(`${file}: line ${i + 1}\n  - ${x[i] ?? '(end)'}\n  + ${y[i] ?? '(end)'}`);
    differ++;
  }
}
const compared = new Set([...left, ...right]).size;
console.log(`compare-runs: ${compared - differ} of ${compared} file(s) the same, ${differ} differ`);
process.exit(differ ? 1 : 0);
