import type { InstanceRecord, Provenance, Results } from '../../src/contracts/results.js';
import { RESULTS_SCHEMA } from '../../src/contracts/results.js';
import { summarize } from '../../src/stages/score/aggregate.js';
import { PROMPT_VERSION } from '../../src/stages/prompt/build.js';

export const PROVENANCE: Provenance = {
  instances: 'i'.repeat(64),
  environments: 'e'.repeat(64),
  tracer: 't'.repeat(64),
  prompt: PROMPT_VERSION,
  scorer: 'tracegate-strict@1',
};

/** A scored record; `cluster` names its test file (environment `env`). */
export function rec(
  id: string,
  kind: InstanceRecord['kind'],
  correct: boolean,
  extra: Partial<InstanceRecord> & { test?: string } = {},
): InstanceRecord {
  const { test, ...rest } = extra;
  return {
    id,
    kind,
    scored: true,
    correct,
    error: null,
    tokensIn: 100,
    tokensOut: 10,
    latencyMs: 5,
    retries: 0,
    cluster: { test: `env:${test ?? id}`, package: 'env' },
    oracleDigest: `digest-${id}`,
    ...rest,
  };
}

/**
 * `pattern` as records of one kind: '1' right, '0' wrong; item i's test file is
 * t{floor(i / clusterSize)}, so consecutive items share a cluster.
 */
export function recs(
  kind: InstanceRecord['kind'],
  pattern: string,
  prefix: string,
  clusterSize = 1,
): InstanceRecord[] {
  return [...pattern].map((c, i) =>
    rec(`${prefix}${i}`, kind, c === '1', { test: `${prefix}t${Math.floor(i / clusterSize)}` }),
  );
}

/** A results file around records. */
export function resultsOf(instances: InstanceRecord[], extra: Partial<Results> = {}): Results {
  return {
    schema: RESULTS_SCHEMA,
    model: { endpoint: 'http://127.0.0.1:8000/v1', name: 'acme-coder', revision: 'ckpt-1' },
    promptVersion: PROMPT_VERSION,
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:01:00.000Z',
    harvest: { cached: instances.length, harvested: 0, failed: 0, backend: 'cache' },
    summary: summarize(instances),
    provenance: PROVENANCE,
    instances,
    ...extra,
  };
}
