import { INFRASTRUCTURE_ERRORS, type InstanceRecord } from '../../contracts/results.js';
import type { LoadedInstance } from '../../contracts/suite.js';

/** The gate's clusters of an instance: its first test's file in its environment, and the environment. */
export function clusterOf(loaded: LoadedInstance): { test: string; package: string } {
  const { environment, tests } = loaded.instance;
  return { test: `${environment}:${tests[0]!.split('::')[0]}`, package: environment };
}

/**
 * A record as results.json keeps it, finished where it is built: what
 * happened to the instance, plus where its file is, its clusters, and
 * whether its failure is the infrastructure's rather than the model's.
 */
export function finishRecord(
  loaded: LoadedInstance,
  record: Omit<InstanceRecord, 'file' | 'cluster' | 'infrastructure'>,
): InstanceRecord {
  return {
    ...record,
    file: loaded.file,
    cluster: clusterOf(loaded),
    ...(record.error && INFRASTRUCTURE_ERRORS.has(record.error) ? { infrastructure: true } : {}),
  };
}

/**
 * The record of an item that was never asked (no oracle, no source for its tools): its failure
 * and why, nothing spent. `extra` says whether it counts as scored and which oracle it had.
 */
export function unaskedRecord(
  loaded: LoadedInstance,
  error: NonNullable<InstanceRecord['error']>,
  detail: string,
  extra: Pick<InstanceRecord, 'scored'> & Partial<Pick<InstanceRecord, 'oracleDigest'>>,
): InstanceRecord {
  return finishRecord(loaded, {
    id: loaded.instance.id,
    kind: loaded.instance.kind,
    scored: extra.scored,
    correct: false,
    error,
    detail,
    ...(extra.oracleDigest ? { oracleDigest: extra.oracleDigest } : {}),
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 0,
    retries: 0,
  });
}
