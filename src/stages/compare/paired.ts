import { normalQuantile, studentTCdf, studentTQuantile } from './stats.js';

/** One paired item: its cluster and each run's success rate on it (0/1, or k/k samples). */
export interface PairedItem {
  cluster: string;
  baseline: number;
  candidate: number;
}

/**
 * The paired difference of two runs on the same items, with a cluster-robust
 * standard error. Definitions (docs/gate.md has them worked by hand):
 *
 * - d_i = candidate_i − baseline_i; n items in G clusters; D_g = Σ_{i∈g} d_i.
 * - `delta` = Σd / n, the observed change reported to the user.
 * - `centre` = Σd / (n + 2): Agresti–Min's ½ added to each cell of the paired
 *   2×2 table (half a loss, half a gain, one tie), so that no or one-sided
 *   discordance never yields a zero standard error.
 * - S = Σ_g (D_g − n_g·centre)² + 1 + 2·centre² (the pseudo-cells' share);
 *   Var = G/(G−1) · S / (n + 2)² (CR1); `se` = √Var; t with G − 1 degrees of freedom.
 *
 * Without clustering (every item its own cluster) and without the CR1 factor this
 * is exactly Agresti and Min's (2005) interval for matched proportions.
 */
export interface PairedEstimate {
  n: number;
  clusters: number;
  /** Mean success rate of each run over the paired items. */
  baseline: number;
  candidate: number;
  delta: number;
  /** Items the baseline did better on (d < 0), and the candidate (d > 0). */
  lost: number;
  gained: number;
  centre: number;
  se: number;
  df: number;
}

export function pairedDifference(items: readonly PairedItem[]): PairedEstimate {
  const n = items.length;
  const sums = new Map<string, { d: number; n: number }>();
  let base = 0;
  let cand = 0;
  let lost = 0;
  let gained = 0;
  for (const item of items) {
    const d = item.candidate - item.baseline;
    base += item.baseline;
    cand += item.candidate;
    if (d < 0) lost++;
    if (d > 0) gained++;
    const s = sums.get(item.cluster) ?? { d: 0, n: 0 };
    s.d += d;
    s.n++;
    sums.set(item.cluster, s);
  }
  const total = cand - base;
  const centre = total / (n + 2);
  const G = sums.size;
  let S = 1 + 2 * centre * centre;
  for (const s of sums.values()) S += (s.d - s.n * centre) ** 2;
  const correction = G > 1 ? G / (G - 1) : Infinity;
  return {
    n,
    clusters: G,
    baseline: n ? base / n : 0,
    candidate: n ? cand / n : 0,
    delta: n ? total / n : 0,
    lost,
    gained,
    centre,
    se: Math.sqrt((correction * S) / (n + 2) ** 2),
    df: Math.max(G - 1, 1),
  };
}

/** One-sided (1 − alpha) bounds of the change: delta ≥ lower and delta ≤ upper, each at 1 − alpha. */
export function bounds(e: PairedEstimate, alpha: number): { lower: number; upper: number } {
  const t = studentTQuantile(1 - alpha, e.df);
  return { lower: e.centre - t * e.se, upper: e.centre + t * e.se };
}

/** One-sided p-value of "no drop" (H0: delta ≥ 0) — small when the candidate is worse. */
export function pDrop(e: PairedEstimate): number {
  return studentTCdf(e.centre / e.se, e.df);
}

/** One-sided p-value of "no gain" (H0: delta ≤ 0) — small when the candidate is better. */
export function pGain(e: PairedEstimate): number {
  return 1 - studentTCdf(e.centre / e.se, e.df);
}

/** The power at which "items needed" and the minimum detectable effect are stated. */
export const PLANNING_POWER = 0.8;

/**
 * Planning figures at the observed discordance and clustering (per-item variance
 * σ² = n·se²): the smallest drop this sample detects with 80% power at `alpha`
 * (`mde`), and how many more paired items would give 80% power to exclude a drop
 * of `margin` if the two models are truly equal (`needed`).
 */
export function planning(
  e: PairedEstimate,
  alpha: number,
  margin: number,
): { mde: number; needed: number } {
  const z = normalQuantile(1 - alpha) + normalQuantile(PLANNING_POWER);
  const sigma = e.se * Math.sqrt(Math.max(e.n, 1));
  const required = margin > 0 ? Math.ceil(((z * sigma) / margin) ** 2) : Number.MAX_SAFE_INTEGER;
  return { mde: z * e.se, needed: Math.max(0, required - e.n) };
}

/**
 * Paired items (in all) at which a change of `delta` would be significant by
 * the gate's own test at one-sided level `alpha`, if the change and the row's
 * per-item spread held: the smallest m with
 *
 *   |delta| · m/(m + 2) ≥ t₁₋α,G_m−1 · σ/√m,
 *
 * σ² = n·se² (the row's per-item variance, discordance and clustering
 * included), m/(m + 2) the Agresti–Min shrinkage of the centre, G_m = G·m/n
 * clusters (clusters growing with the items). The left side grows with m and
 * the quantile shrinks, so the first m that holds is found by bisection.
 * Undefined without a spread to size it from (one cluster) or a change.
 */
export function itemsToSignificance(
  e: Pick<PairedEstimate, 'n' | 'se' | 'clusters'>,
  delta: number,
  alpha: number,
): number | undefined {
  const sigma = e.se * Math.sqrt(Math.max(e.n, 1));
  if (!Number.isFinite(sigma) || delta === 0 || e.n < 1) return undefined;
  const holds = (m: number) => {
    const df = Math.max(1, Math.round((e.clusters * m) / e.n) - 1);
    return (
      (Math.abs(delta) * m) / (m + 2) >= (studentTQuantile(1 - alpha, df) * sigma) / Math.sqrt(m)
    );
  };
  const LIMIT = 1e9;
  let high = 1;
  while (!holds(high)) {
    if (high >= LIMIT) return undefined;
    high *= 2;
  }
  let low = Math.floor(high / 2);
  // low fails (or is 0), high holds.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (holds(mid)) high = mid;
    else low = mid;
  }
  return high;
}
