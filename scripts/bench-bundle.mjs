#!/usr/bin/env node
// The bundle at scale, measured: the cold harvest of every bundled instance (no environment image,
// an empty cache) — wall time and containers started — then a warm run against a loopback model:
// containers started (none) and the time from start to the first request.
// Usage: node scripts/bench-bundle.mjs [--keep-images]   (needs a Docker engine; see scripts/ensure-docker.sh)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'index.js');
const docker = new Docker();
const work = mkdtempSync(join(tmpdir(), 'tg-bench-bundle-'));
const cache = join(work, 'cache');

async function containerStarts(since, until) {
  const stream = await docker.getEvents({
    since,
    until,
    filters: { type: ['container'], event: ['start'], label: ['tracegate.job'] },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim()).length;
}

function run(args, onLine) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (d) => {
      out += d;
      for (const line of String(d).split('\n')) if (line) onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => resolve({ code, out }));
  });
}

if (!process.argv.includes('--keep-images')) {
  const images = spawnSync('docker', ['images', '-q', 'tracegate-env'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  if (images.length) spawnSync('docker', ['rmi', '-f', ...new Set(images)], { stdio: 'ignore' });
  console.log(`removed ${new Set(images).size} environment image(s)`);
}

const t0 = Date.now();
const s0 = Math.floor(t0 / 1000) - 1;
const cold = await run(['harvest', '--instances', join(root, 'instances'), '--cache', cache]);
const t1 = Date.now();
const coldStarts = await containerStarts(s0, Math.ceil(t1 / 1000) + 1);
const summary = /oracles: .*/.exec(cold.out)?.[0] ?? '(no summary)';
console.log(
  `cold harvest: ${((t1 - t0) / 1000).toFixed(1)} s, ${coldStarts} container(s) started; ${summary} (exit ${cold.code})`,
);

// Warm: a model that answers at once; the first request's arrival measures the run's start-up.
let first;
const server = createServer((req, res) => {
  first ??= Date.now();
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [
          { index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
    );
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/v1`;
const w0 = Date.now();
const warm = await run([
  'run',
  '--instances',
  join(root, 'instances'),
  '--cache',
  cache,
  '--endpoint',
  url,
  '--model',
  'm',
  '--out',
  join(work, 'out'),
  '--concurrency',
  '16',
]);
const w1 = Date.now();
server.close();
const warmStarts = await containerStarts(Math.floor(w0 / 1000) - 1, Math.ceil(w1 / 1000) + 1);
console.log(
  `warm run: ${((w1 - w0) / 1000).toFixed(1)} s in all, first request after ${((first - w0) / 1000).toFixed(2)} s, ${warmStarts} container(s) started (exit ${warm.code})`,
);
