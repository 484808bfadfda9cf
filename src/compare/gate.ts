import type { InstanceRecord } from '../contracts/results.js';
import { round } from '../score/aggregate.js';
import { holm, mcnemarExact } from './stats.js';

export interface GatePolicy {
  /** A drop in accuracy (0..1) smaller than this never fails the gate. */
  minDrop: number;
  /** Family-wise significance level after Holm correction. */
  alpha: number;
}

export type KindStatus = 'improved' | 'unchanged' | 'inconclusive' | 'regressed';
export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'no-baseline';

export interface KindComparison {
  kind: string;
  /** Instances both runs scored. */
  paired: number;
  candidate: number;
  baseline: number;
  delta: number;
  /** Baseline right, candidate wrong. */
  lost: number;
  /** Candidate right, baseline wrong. */
  gained: number;
  pValue: number;
  pHolm: number;
  status: KindStatus;
}

export interface Comparison {
  verdict: Verdict;
  policy: GatePolicy;
  kinds: KindComparison[];
}

/**
 * Paired comparison per kind on the instances both runs scored: delta,
 * exact McNemar, Holm across kinds. A kind regresses only when its drop is at
 * least `minDrop` AND significant; any other drop is inconclusive — reported,
 * never silently passed or failed.
 */
export function compareRuns(
  candidate: InstanceRecord[],
  baseline: InstanceRecord[] | undefined,
  policy: GatePolicy,
): Comparison {
  if (!baseline) return { verdict: 'no-baseline', policy, kinds: [] };
  const base = new Map(baseline.filter((r) => r.scored).map((r) => [r.id, r]));
  const pairs = candidate
    .filter((r) => r.scored && base.has(r.id))
    .map((r) => ({ cand: r, base: base.get(r.id)! }));
  const kinds = [...new Set(pairs.map((p) => p.cand.kind))].sort();
  const rows = kinds.map((kind) => {
    const ofKind = pairs.filter((p) => p.cand.kind === kind);
    const lost = ofKind.filter((p) => p.base.correct && !p.cand.correct).length;
    const gained = ofKind.filter((p) => !p.base.correct && p.cand.correct).length;
    const candidateAcc = ofKind.filter((p) => p.cand.correct).length / ofKind.length;
    const baselineAcc = ofKind.filter((p) => p.base.correct).length / ofKind.length;
    return {
      kind,
      paired: ofKind.length,
      candidate: round(candidateAcc),
      baseline: round(baselineAcc),
      delta: round(candidateAcc - baselineAcc),
      lost,
      gained,
      pValue: mcnemarExact(lost, gained),
    };
  });
  const adjusted = holm(rows.map((r) => r.pValue));
  const compared: KindComparison[] = rows.map((row, i) => {
    const pHolm = round(adjusted[i]!);
    const significant = pHolm < policy.alpha;
    let status: KindStatus;
    if (row.delta < 0)
      status = -row.delta >= policy.minDrop && significant ? 'regressed' : 'inconclusive';
    else if (row.delta > 0 && significant) status = 'improved';
    else status = 'unchanged';
    return { ...row, pValue: round(row.pValue), pHolm, status };
  });
  const verdict: Verdict = compared.some((k) => k.status === 'regressed')
    ? 'fail'
    : compared.some((k) => k.status === 'inconclusive')
      ? 'inconclusive'
      : 'pass';
  return { verdict, policy, kinds: compared };
}
