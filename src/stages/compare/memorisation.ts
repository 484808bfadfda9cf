// The memorisation signal: does the model answer the published items much better than their
// fresh variants? The paired difference original − variant over the items whose original and
// variant this run both answered, with the gate's own statistic (paired, clustered, one-sided).
import type { InstanceRecord, Results } from '../../contracts/results.js';
import { bounds, pairedDifference, pGain } from './paired.js';
import { clusterOf, isInfrastructure, successRate, type Pair } from './pairing.js';
import type { GatePolicy } from './gate.js';

export type Memorisation = NonNullable<Results['memorisation']>;

/** The instance a variant id is of (`<id>@v<epoch>`), undefined for an instance that is no variant. */
function originalOf(id: string): string | undefined {
  const at = id.lastIndexOf('@v');
  return at > 0 && /^\d+$/.test(id.slice(at + 2)) ? id.slice(0, at) : undefined;
}

const answered = (r: InstanceRecord | undefined): r is InstanceRecord =>
  !!r && r.scored && !isInfrastructure(r);

function row(pairs: readonly Pair[], policy: MemorisationPolicy) {
  const e = pairedDifference(pairs);
  const testable = e.n >= policy.minItems && e.clusters >= policy.minClusters && e.clusters >= 2;
  const b = testable ? bounds(e, policy.alpha) : undefined;
  const p = testable ? pGain(e) : undefined;
  return {
    pairs: e.n,
    clusters: e.clusters,
    original: e.candidate,
    variant: e.baseline,
    difference: e.delta,
    ...(b ? { lower: b.lower, upper: b.upper, p: p! } : {}),
    flagged: p !== undefined && p < policy.alpha && e.delta >= policy.minDrop,
  };
}

type MemorisationPolicy = Pick<
  GatePolicy,
  'alpha' | 'minDrop' | 'clusterBy' | 'minItems' | 'minClusters'
>;

/**
 * Original − variant over the pairs this run answered both of (clustered as
 * the gate clusters, by the original's test or package), overall and per
 * kind; `flagged` when the originals are significantly better at the gate's
 * level and by at least its min-drop (one-sided: a model that does better on
 * fresh items is not flagged).
 * Undefined when the run holds no such pair.
 */
export function memorisationOf(
  records: readonly InstanceRecord[],
  policy: MemorisationPolicy,
): Memorisation | undefined {
  const byId = new Map(records.map((r) => [r.id, r]));
  const pairs: Pair[] = [];
  for (const variant of records) {
    const of = originalOf(variant.id);
    const original = of === undefined ? undefined : byId.get(of);
    if (!answered(variant) || !answered(original)) continue;
    pairs.push({
      id: original.id,
      kind: original.kind,
      cluster: clusterOf(original, policy.clusterBy),
      baseline: successRate(variant),
      candidate: successRate(original),
    });
  }
  if (!pairs.length) return undefined;
  const kinds = [...new Set(pairs.map((p) => p.kind))].sort();
  return {
    ...row(pairs, policy),
    level: 1 - policy.alpha,
    byKind: Object.fromEntries(
      kinds.map((k) => [
        k,
        row(
          pairs.filter((p) => p.kind === k),
          policy,
        ),
      ]),
    ),
  };
}
