import { MEASURED_FIELD, type QuestionKind, type WorldKind } from '../../contracts/kinds.js';
import type { MeasuredRun } from '../family.js';

/**
 * What the world-model kinds' answers are compared on, for every stage that
 * compares them: the harvest (do two runs agree?) and the pairing (do two
 * runs' oracles ask the same thing?). A measured number (W2, W3) is never
 * byte-stable and agrees within its band; a profile (W4) is its top entry of
 * every list, which is what its pass rule reads; an outcome (W1) is compared
 * whole, as the traced kinds' answers are.
 */

/**
 * W4: where an oracle names the tops of its ranked lists when its harvests disagreed which of
 * near-equal names leads (profileTops): per list, every name that led a harvest. The pass rule
 * asks for each of them in the predicted top five.
 */
export const TIED_TOPS = 'tied_tops';

/** A profile's top of every ranked list (its tied tops where the oracle has them), lists in name order. */
export function topEntries(answer: unknown): Record<string, unknown> {
  const lists = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const tied = (lists[TIED_TOPS] ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(lists)
      .filter((list) => list !== TIED_TOPS)
      .sort()
      .map((list) => {
        const names = lists[list];
        const tops = Array.isArray(tied[list]) ? tied[list] : undefined;
        return [list, tops ?? (Array.isArray(names) ? (names[0] ?? null) : null)];
      }),
  );
}

/** The part of an oracle's answer two runs must share to be paired (the rest may be re-measured). */
export function pairedAnswer(kind: QuestionKind, answer: unknown): unknown {
  if (MEASURED_FIELD[kind as WorldKind]) return 'measured';
  if (kind === 'W4_Profile' && answer && typeof answer === 'object') return topEntries(answer);
  return answer;
}

/**
 * W4: the top of every ranked list that independent harvest runs agree on, or undefined when they
 * disagree. A list's top is its leader when every run has the same one; when the leaders differ, and
 * each run measured every other run's leader within a quarter of its own top (`near_top`: the
 * scheduler's noise decides between near-equal wall times), the list's tops are all the leaders, by
 * name. A leader far from another run's top is a disagreement, as any other.
 */
export function profileTops(runs: readonly MeasuredRun[]): Record<string, string[]> | undefined {
  const answers = runs.map((r) => (r.answer ?? {}) as Record<string, unknown>);
  const lists = [...new Set(answers.flatMap((a) => Object.keys(a)))].filter((l) => l !== TIED_TOPS);
  const tops: Record<string, string[]> = {};
  for (const list of lists.sort()) {
    const leaders = answers.map((a) => {
      const names = a[list];
      return Array.isArray(names) && typeof names[0] === 'string' ? names[0] : null;
    });
    const distinct = [...new Set(leaders)];
    const [only] = distinct;
    if (distinct.length === 1) {
      if (typeof only === 'string') tops[list] = [only];
      continue;
    }
    const near = (run: MeasuredRun, name: string | null) => {
      const names = run.nearTop?.[list];
      return name !== null && Array.isArray(names) && names.includes(name);
    };
    if (!runs.every((run) => leaders.every((leader) => near(run, leader)))) return undefined;
    tops[list] = (distinct as string[]).sort();
  }
  return tops;
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
  if (kind === 'W4_Profile') return profileTops(runs) !== undefined;
  return false;
}

/**
 * The answer independent harvest runs of a world-model kind agree on (the first run's; a profile's
 * with its tied tops), or undefined when they do not agree (measuredAgree).
 */
export function agreedAnswer(
  kind: QuestionKind,
  runs: readonly MeasuredRun[],
): { answer: unknown } | undefined {
  if (!measuredAgree(kind as WorldKind, runs)) return undefined;
  const first = runs[0]?.answer;
  return { answer: kind === 'W4_Profile' ? withTiedTops(first, profileTops(runs)!) : first };
}

/** A profile's answer with the lists whose harvests' leaders differed (profileTops) naming all of them. */
function withTiedTops(answer: unknown, tops: Record<string, string[]>): unknown {
  const tied = Object.fromEntries(Object.entries(tops).filter(([, names]) => names.length > 1));
  return Object.keys(tied).length ? { ...(answer as object), [TIED_TOPS]: tied } : answer;
}
