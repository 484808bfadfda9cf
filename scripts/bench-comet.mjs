#!/usr/bin/env node
// What verifying B1/B2 replies costs, measured on this machine: the bundle's B1/B2 instances
// harvested once (`tracegate harvest --categories B1,B2`), then answered by a reference model on
// loopback (each prompt answered with its own oracle: every reply is run against both versions),
// first with an empty verification cache (A: every reply runs in the sandbox), then again with the
// cache A left (B: nothing runs). Pairs alternate which goes first only in what they cost the
// machine; A is always the one with the empty cache. Reports replies, wall time of each run, the
// containers' seconds per reply (the verifier's own log), replies verified per minute and B / A.
//
//   node scripts/bench-comet.mjs [--pairs 1] [--keep DIR] [--concurrency 8]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '1' },
    keep: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
  },
});
const cli = join(root, 'dist', 'cli', 'index.js');
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'tg-bench-comet-'));
mkdirSync(work, { recursive: true });
const cache = join(work, 'cache');
const selection = ['--instances', join(root, 'instances'), '--categories', 'B1,B2'];

/** A tracegate command in a child process (async: the reference model serves from this process). */
function cliRun(args) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) {
        process.stderr.write(out.slice(-4000));
        reject(new Error(`tracegate ${args[0]} exited ${code}`));
      } else resolve({ seconds, log: out });
    });
  });
}

/** Each oracle with the code its prompt shows: two bugs of one function ask the same question. */
function oracles() {
  return readdirSync(join(cache, 'oracles')).map((key) => {
    const read = (name) => JSON.parse(readFileSync(join(cache, 'oracles', key, name), 'utf8'));
    const oracle = read('oracle.json');
    const context = read('context.json');
    return {
      question: oracle.question,
      answer: oracle.oracle_answer,
      source: context.source,
      firstLine: context.first_line,
    };
  });
}

/** A reference model on loopback (OpenAI chat completions): each prompt's own oracle as its reply. */
async function referenceModel() {
  const entries = oracles();
  const answer = (prompt) => {
    const question = /^## Question\n([\s\S]*?)\n\n## Answer template/m.exec(prompt)?.[1];
    const asked = entries.filter((e) => e.question === question);
    // Two bugs of one function ask the same question: the one whose numbered lines the prompt shows most.
    const shown = (e) =>
      e.source
        .replace(/\n$/, '')
        .split('\n')
        .filter((line, i) => prompt.includes(`${String(e.firstLine + i).padStart(5)}  ${line}\n`))
        .length;
    const found =
      asked.length <= 1 ? asked[0] : asked.reduce((a, b) => (shown(b) > shown(a) ? b : a));
    return found ? JSON.stringify(found.answer) : '{}';
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url.endsWith('/models')) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: [{ id: 'reference' }] }));
        return;
      }
      const prompt = (JSON.parse(body).messages ?? []).map((m) => m.content).join('\n');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'r',
          object: 'chat.completion',
          model: 'reference',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: answer(prompt) },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

function answer(url, out) {
  return cliRun([
    'run',
    ...selection,
    '--cache',
    cache,
    '--endpoint',
    url,
    '--model',
    'reference',
    '--concurrency',
    values.concurrency,
    '--out',
    join(work, out),
  ]);
}

function figures(log) {
  const each = [...log.matchAll(/Verified (\d+) repl(?:y|ies) in "[^"]+" in ([\d.]+) s/g)];
  const replies = each.reduce((n, m) => n + Number(m[1]), 0);
  const seconds = each.reduce((n, m) => n + Number(m[2]), 0);
  return { replies, seconds, batches: each.length };
}

console.log(
  `harvest: ${(await cliRun(['harvest', ...selection, '--cache', cache])).seconds.toFixed(1)} s`,
);
const model = await referenceModel();
try {
  for (let pair = 1; pair <= Number(values.pairs); pair++) {
    rmSync(join(cache, 'verifications'), { recursive: true, force: true });
    const a = await answer(model.url, `a${pair}`);
    const b = await answer(model.url, `b${pair}`);
    const fa = figures(a.log);
    const fb = figures(b.log);
    const results = JSON.parse(readFileSync(join(work, `a${pair}`, 'results.json'), 'utf8'));
    const wrong = results.instances.filter((r) => !r.correct).map((r) => r.id);
    console.log(
      `pair ${pair}: ${results.instances.length} replies (${wrong.length} not passing${wrong.length ? `: ${wrong.slice(0, 5).join(', ')}` : ''})\n` +
        `  A (empty verification cache): ${a.seconds.toFixed(1)} s; ${fa.replies} verified in ${fa.batches} ` +
        `container(s), ${fa.seconds.toFixed(1)} s of containers, ${(fa.seconds / Math.max(1, fa.replies)).toFixed(2)} s ` +
        `per reply, ${((60 * fa.replies) / Math.max(fa.seconds, 1e-9)).toFixed(1)} replies/min\n` +
        `  B (cached): ${b.seconds.toFixed(1)} s; ${fb.replies} verified (no container)\n` +
        `  B / A: ${(b.seconds / a.seconds).toFixed(3)}`,
    );
  }
} finally {
  model.close();
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}
