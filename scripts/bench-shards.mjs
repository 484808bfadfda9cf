#!/usr/bin/env node
// Shard balance on this machine: the whole bundle (or a sample) split into n shards, each run one
// after another as a fresh matrix job would run it (its own empty cache, the environment images
// present), against a loopback model that answers at once. Reports each shard's items, expected
// cost and measured seconds (harvest and answers: the whole `tracegate run`), and the imbalance
// max / mean of the measured times (the issue's goal: ≤ 1.2 for n = 4 on the whole bundle). Then
// merges the shards (`tracegate merge`) and checks the merged run holds every item once.
//
//   node scripts/bench-shards.mjs [--shards 4] [--sample N] [--seed 1] [--keep DIR]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    shards: { type: 'string', default: '4' },
    sample: { type: 'string' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'string' },
  },
});
const n = Number(values.shards);
const cli = join(root, 'dist', 'cli', 'index.js');
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'tg-bench-shards-'));

// A model that answers every request at once with an empty object (the harvest is what is timed).
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'GET') return res.end(JSON.stringify({ data: [{ id: 'm' }] }));
    res.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
    );
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const endpoint = `http://127.0.0.1:${server.address().port}/v1`;

function run(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0 && code !== 1 && code !== 4)
        reject(new Error(`exit ${code}:\n${stderr.slice(-3000)}`));
      else resolve({ seconds, stderr });
    });
  });
}

const selection = [
  '--instances',
  join(root, 'instances'),
  ...(values.sample ? ['--sample', values.sample, '--seed', values.seed] : []),
];
const rows = [];
for (let i = 1; i <= n; i++) {
  const cache = join(work, `cache-${i}`);
  rmSync(cache, { recursive: true, force: true });
  const { seconds, stderr } = await run([
    'run',
    ...selection,
    '--endpoint',
    endpoint,
    '--model',
    'm',
    '--model-revision',
    'bench',
    '--concurrency',
    '16',
    '--shard',
    `${i}/${n}`,
    '--cache',
    cache,
    '--out',
    join(work, 'parts', `part-${i}`),
  ]);
  const planned =
    /Shard \d+ of \d+: (\d+) of the selection's (\d+) instance\(s\), expected cost ([\d.]+)/.exec(
      stderr,
    );
  rows.push({
    i,
    items: Number(planned?.[1]),
    of: Number(planned?.[2]),
    expected: Number(planned?.[3]),
    seconds,
  });
  process.stderr.write(
    `shard ${i}/${n}: ${planned?.[1]} items, expected ${planned?.[3]}, ${seconds.toFixed(1)} s\n`,
  );
}
server.close();
const merged = spawnSync(
  process.execPath,
  [cli, 'merge', join(work, 'parts'), '--out', join(work, 'merged')],
  {
    encoding: 'utf8',
  },
);
const results = JSON.parse(readFileSync(join(work, 'merged', 'results.json'), 'utf8'));
const times = rows.map((r) => r.seconds);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(`| shard | items | expected cost | measured (s) |\n|---:|---:|---:|---:|`);
for (const r of rows)
  console.log(`| ${r.i} of ${n} | ${r.items} | ${r.expected} | ${r.seconds.toFixed(1)} |`);
console.log(
  `\nimbalance (max / mean measured): **${(Math.max(...times) / mean).toFixed(2)}**; ` +
    `all ${n} one after another: ${times.reduce((a, b) => a + b, 0).toFixed(0)} s; ` +
    `merged: ${results.instances.length} records of ${rows[0].of} selected (exit ${merged.status})`,
);
if (!values.keep) rmSync(work, { recursive: true, force: true });
