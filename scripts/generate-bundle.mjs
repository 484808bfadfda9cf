#!/usr/bin/env node
// Regenerates the bundled benchmark (instances/<package>/) from benchmark/<package>/{environment.json,tests/}
// with `tracegate generate`, one package at a time, with the seed and caps of benchmark/packages.json.
// Usage: node scripts/generate-bundle.mjs [PACKAGE ...] [-- extra generate flags, e.g. --base-image IMAGE]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = JSON.parse(readFileSync(join(root, 'benchmark', 'packages.json'), 'utf8'));
const args = process.argv.slice(2);
const split = args.indexOf('--');
const only = split < 0 ? args : args.slice(0, split);
const extra = split < 0 ? [] : args.slice(split + 1);
const names = only.length ? only : Object.keys(config.packages);
for (const name of names) {
  const packages = config.packages[name];
  if (!packages) {
    console.error(`generate-bundle: no package ${name} in benchmark/packages.json`);
    process.exit(2);
  }
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'dist', 'cli', 'index.js'),
      'generate',
      '--environment',
      join(root, 'benchmark', name, 'environment.json'),
      '--tests',
      join(root, 'benchmark', name, 'tests'),
      '--out',
      join(root, 'instances'),
      '--suite',
      name,
      '--packages',
      packages.join(','),
      '--seed',
      String(config.seed),
      '--targets-per-file',
      String(config.targetsPerFile),
      '--max',
      String(config.maxPerPackage),
      '--report',
      join(root, 'benchmark', 'reports', `${name}.json`),
      ...extra,
    ],
    { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const log = run.stderr.split('\n').filter((l) => !/^\s+\[/.test(l) && !/: invalid — /.test(l));
  console.error(log.join('\n'));
  console.error(
    `generate-bundle: ${name} took ${((Date.now() - started) / 1000).toFixed(0)} s (exit ${run.status ?? run.signal})`,
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}
