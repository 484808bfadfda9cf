import type { GatePolicy, Row, RowStatus } from '../../contracts/comparison.js';
import { bounds, pairedDifference, pDrop, planning } from './paired.js';
import type { Pair } from './pairing.js';
import { holm } from './stats.js';

/** Floating-point slack for "at least min-drop" (a 1/20 drop is a 0.05 drop). */
const EPS = 1e-9;

export interface Estimated {
  row: Row;
  /** Enough items and clusters to be tested (and to take part in Holm). */
  testable: boolean;
}

/** One row's estimate on its pairs: the paired difference, its bounds and test when it has two clusters. */
export function estimate(pairs: readonly Pair[], policy: GatePolicy, alpha: number): Estimated {
  const e = pairedDifference(pairs);
  const testable = e.n >= policy.minItems && e.clusters >= policy.minClusters;
  const row: Row = {
    paired: e.n,
    clusters: e.clusters,
    baseline: e.baseline,
    candidate: e.candidate,
    delta: e.delta,
    lost: e.lost,
    gained: e.gained,
    status: 'too few items' as RowStatus,
  };
  if (e.clusters < 2) return { row, testable };
  const drop = pDrop(e);
  row.test = {
    centre: e.centre,
    se: e.se,
    df: e.df,
    ...bounds(e, alpha),
    pDrop: drop,
    // pGain(e), the complementary tail of the same statistic
    pGain: 1 - drop,
    ...planning(e, alpha, policy.minDrop),
  };
  return { row, testable };
}

/** Holm over the testable rows, then each row's status at this look's level. */
export function decideRows(rows: Estimated[], policy: GatePolicy, alpha: number): void {
  const tested = rows.filter((r) => r.testable && r.row.test).map((r) => r.row);
  const drops = holm(tested.map((r) => r.test!.pDrop));
  const gains = holm(tested.map((r) => r.test!.pGain));
  tested.forEach((r, i) => {
    r.test!.pDropAdjusted = drops[i]!;
    r.test!.pGainAdjusted = gains[i]!;
    if (drops[i]! < alpha && r.delta <= -policy.minDrop + EPS) r.status = 'regressed';
    else if (gains[i]! < alpha && r.delta >= policy.minGain - EPS) r.status = 'improved';
    else r.status = 'within noise';
  });
}
