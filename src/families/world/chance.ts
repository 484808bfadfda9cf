import type { QuestionKind, WorldKind } from '../../contracts/kinds.js';
import type { ConstantCandidates } from '../family.js';
import { RANK_LISTS, VALUE, replyNumber, topsOf } from './score.js';

/** Just inside a band's edge: the pass rule's `≤ factor` must hold after rounding. */
const INSIDE = 1 - 1e-12;

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * The constants beyond the oracle answers that the world-model pass rule makes worth trying: for a
 * measured number (W2, W3) each oracle number at the top of its pass band (a constant c passes
 * truths within the factor of it, so the best window starts at some truth t: c = t·factor), tried
 * first; for a profile (W4) the five most frequent top entries (tied tops too) of each list.
 */
export function worldConstants(
  kind: QuestionKind,
  oracles: readonly unknown[],
  factor: number,
): ConstantCandidates {
  const value = VALUE[kind as WorldKind];
  if (value) {
    const edges = oracles.flatMap((o) => {
      const t = replyNumber((o as Record<string, unknown> | null)?.[value.field]);
      return t === undefined ? [] : [{ [value.field]: Math.max(t, value.floor) * factor * INSIDE }];
    });
    return { first: edges, last: [], measured: true };
  }
  if (kind === 'W4_Profile') {
    const profile: Record<string, string[]> = {};
    for (const list of RANK_LISTS) {
      const counts = new Map<string, number>();
      for (const o of oracles)
        for (const top of topsOf(asRecord(o), list)) counts.set(top, (counts.get(top) ?? 0) + 1);
      profile[list] = [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name]) => name);
    }
    return { first: [], last: [profile], measured: false };
  }
  return { first: [], last: [], measured: false };
}
