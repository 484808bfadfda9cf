import { createHash } from 'node:crypto';
import { HISTORY_SCHEMA, type HistoryEntry } from '../../src/contracts/history.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { RESULTS_SCHEMA } from '../../src/contracts/results.js';
import { summarize } from '../../src/stages/score/aggregate.js';

/** A full 40-hex sha derived from a label, so tests can name commits `c1`, `main-3`, … */
export function sha(label: string): string {
  return createHash('sha1').update(label).digest('hex');
}

/** Records of `kind` following `pattern` ('1' right, '0' wrong). */
export function records(kind: InstanceRecord['kind'], pattern: string): InstanceRecord[] {
  return [...pattern].map((c, i) => ({
    id: `${kind}-${i}`,
    kind,
    scored: true,
    correct: c === '1',
    error: null,
    tokensIn: 100,
    tokensOut: 10,
    latencyMs: 5,
    retries: 0,
    oracleDigest: `digest-${kind}-${i}`,
  }));
}

export interface EntryOptions {
  name?: string;
  parent?: string;
  branch?: string;
  recordedAt?: string;
  verdict?: string;
  prompt?: string;
  scorer?: string;
  instances?: InstanceRecord[];
}

/** A results file around records, with the given prompt version and scorer. */
export function results(options: EntryOptions = {}): Results {
  const instances = options.instances ?? [
    ...records('S2_Loops', '1100'),
    ...records('S5_Exceptions', '101'),
  ];
  const prompt = options.prompt ?? 'p3';
  return {
    schema: RESULTS_SCHEMA,
    model: { endpoint: 'http://127.0.0.1:8000/v1', name: 'acme-coder', revision: 'ckpt-1' },
    promptVersion: prompt,
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:01:00.000Z',
    harvest: { cached: instances.length, harvested: 0, failed: 0, backend: 'cache' },
    summary: summarize(instances),
    provenance: {
      instances: 'i'.repeat(64),
      environments: 'e'.repeat(64),
      tracer: 't'.repeat(64),
      prompt,
      scorer: options.scorer ?? 'tracegate-strict@1',
    },
    instances,
  };
}

/** A history entry of `commit` (a label turned into a sha unless it is one). */
export function entry(commit: string, options: EntryOptions = {}): HistoryEntry {
  const full = /^[0-9a-f]{40}$/.test(commit) ? commit : sha(commit);
  return {
    schema: HISTORY_SCHEMA,
    name: options.name ?? 'tracegate',
    commit: full,
    ...(options.parent ? { parent: options.parent } : {}),
    ...(options.branch ? { branch: options.branch } : {}),
    recordedAt: options.recordedAt ?? '2026-12-01T00:00:00.000Z',
    ...(options.verdict ? { verdict: options.verdict } : {}),
    results: results(options),
  };
}

/** A warning sink that keeps what it was told. */
export function warnings(): { warn: (m: string) => void; seen: string[] } {
  const seen: string[] = [];
  return { warn: (m) => seen.push(m), seen };
}

/** Minutes after a fixed instant, as recordedAt. */
export function at(minutes: number): string {
  return new Date(Date.UTC(2026, 11, 1) + minutes * 60_000).toISOString();
}
