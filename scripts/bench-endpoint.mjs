// Throughput of the query stage's transport against a loopback OpenAI-compatible server
// that answers every request after a fixed delay (200 ms by default). Reports
// achieved requests/s at each concurrency as a fraction of the ideal
// (concurrency / delay), and this process's peak RSS while the level ran: the
// overhead of tracegate's HTTP client, response cache (on disk) and record writer
// (records.jsonl), not of any model. See docs/bench-endpoint.md.
//
//   node scripts/bench-endpoint.mjs [--delay-ms 200] [--rounds 20] [--concurrency 1,8,64,256,1024]
//                                   [--bare]   (the HTTP client alone: no cache, no records)
//
// The stack is the real one from src/ (test/helpers/endpoint-stack.ts), compiled with tsc
// (the bundle in dist/ may lag behind src/). The server is a child process, so the RSS is the client's.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { compileForBench } from './compile-helper.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'delay-ms': { type: 'string', default: '200' },
    rounds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '1,8,64,256,1024' },
    bare: { type: 'boolean', default: false },
  },
});
const delayMs = Number(values['delay-ms']);
const rounds = Number(values.rounds);
const levels = values.concurrency.split(',').map(Number);

// 1. The stack, compiled from source.
const { endpointStack, runPool } = await import(
  compileForBench(root, 'tracegate-bench-endpoint', 'test/helpers/endpoint-stack.ts')
);

// 2. The server, in its own process so it shares neither the client's event loop nor its memory.
const server = spawn(
  process.execPath,
  [
    '-e',
    `
  const http = require('node:http');
  const delayMs = Number(process.argv[1]);
  const body = JSON.stringify({
    choices: [{ index: 0, message: { role: 'assistant', content: '{"loop_iteration_count": 3}' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 8 },
  });
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }, delayMs));
  });
  s.keepAliveTimeout = 60000;
  s.maxConnections = 4096;
  s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
  `,
    String(delayMs),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const port = await new Promise((resolve) =>
  server.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))),
);
const dir = mkdtempSync(join(tmpdir(), 'tg-bench-endpoint-'));
const ask = endpointStack(`http://127.0.0.1:${port}/v1`, dir, !values.bare);
let asked = 0;
const messages = () => [
  { role: 'system', content: 'Reply with JSON only.' },
  // 4 KB, and each prompt its own: the response cache misses and stores every reply.
  { role: 'user', content: `${asked++} `.padEnd(4000, 'x') },
];

// 3. Measure.
const rows = [];
for (const concurrency of levels) {
  const n = concurrency * rounds;
  // warm-up: open the connections
  await runPool(Array.from({ length: concurrency }), concurrency, () =>
    ask(messages(), `w${asked}`),
  );
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  await runPool(Array.from({ length: n }), concurrency, () => ask(messages(), `i${asked}`));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const achieved = n / seconds;
  const ideal = concurrency / (delayMs / 1000);
  rows.push({
    concurrency,
    requests: n,
    seconds,
    achieved,
    ideal,
    fraction: achieved / ideal,
    peak,
  });
}
server.kill();
rmSync(dir, { recursive: true, force: true });

console.log(
  `node ${process.version}, server delay ${delayMs} ms, ${rounds} rounds per level, ` +
    (values.bare
      ? 'the HTTP client alone\n'
      : 'HTTP client + response cache on disk + records.jsonl\n'),
);
console.log(
  '| concurrency | requests | seconds | achieved req/s | ideal req/s | fraction of ideal | peak RSS |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.concurrency} | ${r.requests} | ${r.seconds.toFixed(2)} | ${r.achieved.toFixed(1)} | ${r.ideal.toFixed(1)} | ${(r.fraction * 100).toFixed(1)}% | ${(r.peak / 2 ** 20).toFixed(0)} MiB |`,
  );
// The goal is at 256 in flight; past it (1,024) two cores cannot reach the ideal rate: its row is the memory.
const gated = rows.filter((r) => r.concurrency >= 64 && r.concurrency <= 256).at(-1);
if (gated && gated.fraction < 0.95) {
  console.error(
    `\nbelow goal: ${(gated.fraction * 100).toFixed(1)}% of ideal at concurrency ${gated.concurrency} (goal ≥ 95%)`,
  );
  process.exitCode = 1;
}
