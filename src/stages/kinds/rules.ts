import { isWorldKind, MEASURED_FIELD, type WorldKind } from '../../contracts/kinds.js';
import { canonicalJson } from '../../util/hash.js';

/**
 * What a question kind's answers are compared on, stated once for every
 * stage that compares them: the harvest (do two runs agree?) and the
 * pairing (do two runs' oracles ask the same thing?). Traced kinds compare
 * whole answers; a measured number (W2, W3) is never byte-stable and agrees
 * within its band; a profile (W4) is its top entry of every list, which is
 * what its pass rule reads.
 */

/** A profile's top entry of every ranked list, lists in name order. */
export function topEntries(answer: unknown): Record<string, unknown> {
  const lists = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.keys(lists)
      .sort()
      .map((list) => {
        const names = lists[list];
        return [list, Array.isArray(names) ? (names[0] ?? null) : null];
      }),
  );
}

/** The part of an oracle's answer two runs must share to be paired (the rest may be re-measured). */
export function pairedAnswer(kind: string, answer: unknown): unknown {
  if (isWorldKind(kind) && MEASURED_FIELD[kind]) return 'measured';
  if (kind === 'W4_Profile' && answer && typeof answer === 'object') return topEntries(answer);
  return answer;
}

/** One harvest run's measurement: its answer and the band its tracer recorded. */
export interface MeasuredRun {
  answer: unknown;
  band?: { ratio?: unknown; floor?: unknown };
}

/**
 * Whether independent harvest runs of a measured kind agree: the numbers
 * within the first run's band (W2, W3), or the same top entries (W4).
 * Traced kinds agree only on identical answers (the caller compares those).
 */
export function measuredAgree(kind: WorldKind, runs: readonly MeasuredRun[]): boolean {
  const field = MEASURED_FIELD[kind];
  if (field) {
    const band = runs[0]?.band;
    const ratio = typeof band?.ratio === 'number' ? band.ratio : 1;
    const floor = typeof band?.floor === 'number' ? band.floor : 0;
    const values = runs.map((r) => (r.answer as Record<string, unknown> | undefined)?.[field]);
    if (!values.every((v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0))
      return false;
    const low = Math.min(...values);
    const high = Math.max(...values);
    return high - low <= floor || high <= low * ratio;
  }
  if (kind === 'W4_Profile') {
    const tops = runs.map((r) => canonicalJson(topEntries(r.answer)));
    return tops.every((t) => t === tops[0]);
  }
  return false;
}
