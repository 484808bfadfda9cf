import type { FormatShift } from '../../contracts/comparison.js';
import { FORMAT_ERRORS, type InstanceRecord } from '../../contracts/results.js';

const isFormat = (r: InstanceRecord | undefined): string | undefined =>
  r?.error && FORMAT_ERRORS.has(r.error) ? r.error : undefined;

/** P(X ≥ k) for X ~ Binomial(n, 1/2), exactly (n is the discordant items: small). */
function upperTail(k: number, n: number): number {
  if (k <= 0) return 1;
  let term = 0.5 ** n; // P(X = 0)
  let below = 0;
  for (let i = 0; i < k; i++) {
    below += term;
    term = (term * (n - i)) / (i + 1);
  }
  return Math.max(0, Math.min(1, 1 - below));
}

/**
 * Format failures on the paired items: how many replies of each run could not be read as an
 * answer, by class, and whether this run has significantly more (a one-sided exact sign test on
 * the items where only one of the two failed the format, at `alpha`). None when no paired item
 * failed the format in either run.
 */
export function formatShift(
  ids: readonly string[],
  candidate: readonly InstanceRecord[],
  baseline: readonly InstanceRecord[],
  alpha: number,
): FormatShift | undefined {
  const mine = new Map(candidate.map((r) => [r.id, r]));
  const theirs = new Map(baseline.map((r) => [r.id, r]));
  const byClass: FormatShift['byClass'] = {};
  let onlyMine = 0;
  let onlyTheirs = 0;
  let c = 0;
  let b = 0;
  for (const id of ids) {
    const x = isFormat(mine.get(id));
    const y = isFormat(theirs.get(id));
    if (x) (byClass[x] ??= { candidate: 0, baseline: 0 }).candidate++;
    if (y) (byClass[y] ??= { candidate: 0, baseline: 0 }).baseline++;
    c += x ? 1 : 0;
    b += y ? 1 : 0;
    if (x && !y) onlyMine++;
    if (y && !x) onlyTheirs++;
  }
  if (!c && !b) return undefined;
  const pWorse = upperTail(onlyMine, onlyMine + onlyTheirs);
  return {
    paired: ids.length,
    candidate: c,
    baseline: b,
    byClass,
    pWorse,
    flagged: pWorse < alpha,
  };
}
