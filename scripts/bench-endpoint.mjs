// Throughput of the query client against a loopback OpenAI-compatible server
// that answers every request after a fixed delay (200 ms by default). Reports
// achieved requests/s at each concurrency as a fraction of the ideal
// (concurrency / delay): the overhead of tracegate's transport, pool and
// JSON handling, not of any model. See docs/bench-endpoint.md.
//
//   node scripts/bench-endpoint.mjs [--delay-ms 200] [--rounds 20] [--concurrency 1,8,64]
//
// The client is the real one from src/, compiled to a scratch directory with tsc
// (the bundle in dist/ may lag behind src/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'delay-ms': { type: 'string', default: '200' },
    rounds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '1,8,64' },
  },
});
const delayMs = Number(values['delay-ms']);
const rounds = Number(values.rounds);
const levels = values.concurrency.split(',').map(Number);

// 1. Compile the client from source.
const out = join(root, 'node_modules', '.cache', 'tracegate-bench');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '--outDir',
    out,
    '--rootDir',
    join(root, 'src'),
    '--module',
    'NodeNext',
    '--moduleResolution',
    'NodeNext',
    '--target',
    'ES2022',
    '--types',
    'node',
    '--skipLibCheck',
    '--strict',
    join(root, 'src', 'query', 'factory.ts'),
    join(root, 'src', 'query', 'pool.ts'),
  ],
  { stdio: 'inherit' },
);
const { createModelClient } = await import(pathToFileURL(join(out, 'query', 'factory.js')).href);
const { runPool } = await import(pathToFileURL(join(out, 'query', 'pool.js')).href);

// 2. The server, in its own thread so it does not share the client's event loop.
const server = new Worker(
  `
  const { parentPort, workerData } = require('node:worker_threads');
  const http = require('node:http');
  const body = JSON.stringify({
    choices: [{ index: 0, message: { role: 'assistant', content: '{"loop_iteration_count": 3}' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 8 },
  });
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }, workerData.delayMs));
  });
  s.keepAliveTimeout = 60000;
  s.listen(0, '127.0.0.1', () => parentPort.postMessage(s.address().port));
  `,
  { eval: true, workerData: { delayMs } },
);
const port = await new Promise((resolve) => server.once('message', resolve));
const client = createModelClient({
  api: 'openai-chat',
  endpoint: `http://127.0.0.1:${port}/v1`,
  model: 'bench',
  settings: { temperature: 0, maxTokens: 16 },
  timeoutMs: 30_000,
  retries: 0,
});
const messages = [
  { role: 'system', content: 'Reply with JSON only.' },
  { role: 'user', content: 'x'.repeat(4000) },
];

// 3. Measure.
const rows = [];
for (const concurrency of levels) {
  const n = concurrency * rounds;
  await runPool(Array.from({ length: concurrency }), concurrency, () => client.complete(messages)); // warm-up: open connections
  const started = performance.now();
  await runPool(Array.from({ length: n }), concurrency, () => client.complete(messages));
  const seconds = (performance.now() - started) / 1000;
  const achieved = n / seconds;
  const ideal = concurrency / (delayMs / 1000);
  rows.push({ concurrency, requests: n, seconds, achieved, ideal, fraction: achieved / ideal });
}
await server.terminate();

console.log(`node ${process.version}, server delay ${delayMs} ms, ${rounds} rounds per level\n`);
console.log(
  '| concurrency | requests | seconds | achieved req/s | ideal req/s | fraction of ideal |',
);
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.concurrency} | ${r.requests} | ${r.seconds.toFixed(2)} | ${r.achieved.toFixed(1)} | ${r.ideal.toFixed(1)} | ${(r.fraction * 100).toFixed(1)}% |`,
  );
const last = rows.at(-1);
if (last && last.concurrency >= 64 && last.fraction < 0.95) {
  console.error(
    `\nbelow goal: ${(last.fraction * 100).toFixed(1)}% of ideal at concurrency ${last.concurrency} (goal ≥ 95%)`,
  );
  process.exitCode = 1;
}
