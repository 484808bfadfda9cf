/**
 * Each kind's chance level on a selection: the score of the best constant
 * answer — one answer given to every item of the kind — under the kind's own
 * pass rule (`passes`, the scorer that scored the run), so a reader knows what
 * a model that reads nothing would score.
 *
 * The constants tried are the selection's own oracle answers (the majority
 * class of a categorical answer, the modal answer of a structured one), each
 * scored against every item; for a measured number (W2, W3) also each oracle
 * number at the top of its pass band (a constant c passes truths within the
 * factor of it, so the best window starts at some truth t: c = t·factor); for
 * a profile (W4) also the five most frequent top entries (tied tops too) of each list. The
 * constant is chosen on the items it is scored on: the floor is optimistic,
 * never below what a constant chosen in advance could score on them. On a
 * kind with very many distinct answers only the most frequent are tried
 * (COMPARISONS): then the floor is what the best of those scores.
 */
import type { InstanceRecord } from '../../contracts/results.js';
import { isCometKind, isWorldKind } from '../../contracts/kinds.js';
import { canonicalJson } from '../../util/hash.js';
import { passes, type ScoringRules } from './verdict.js';
import { DEFAULT_WORLD_FACTOR, RANK_LISTS, VALUE, replyNumber, topsOf } from './world.js';

/** The best constant answer of a kind and what it scores. */
export interface ChanceLevel {
  answer: unknown;
  correct: number;
  total: number;
  accuracy: number;
}

/**
 * Verdicts computed per kind at most (candidates × distinct oracles): a
 * structural comparison costs microseconds, so a kind of a few hundred
 * distinct answers is scored whole; past that the most frequent candidates
 * come first. A measured number's rule is a division: its budget is larger.
 */
const COMPARISONS = 50_000;
const MEASURED_COMPARISONS = 2_000_000;

/** Just inside a band's edge: the pass rule's `≤ factor` must hold after rounding. */
const INSIDE = 1 - 1e-12;

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** Constants beyond the oracle answers that the kind's pass rule makes worth trying. */
function ruleCandidates(kind: string, oracles: readonly unknown[], factor: number): unknown[] {
  const value = isWorldKind(kind) ? VALUE[kind] : undefined;
  if (value) {
    return oracles.flatMap((o) => {
      const t = replyNumber((o as Record<string, unknown> | null)?.[value.field]);
      return t === undefined ? [] : [{ [value.field]: Math.max(t, value.floor) * factor * INSIDE }];
    });
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
    return [profile];
  }
  return [];
}

/**
 * The best constant answer for one kind over its items' oracle answers;
 * undefined without any. Ties go to the more frequent oracle answer, then to
 * the first seen.
 */
export function chanceLevel(
  kind: string,
  oracles: readonly unknown[],
  rules: ScoringRules = {},
): ChanceLevel | undefined {
  if (!oracles.length) return undefined;
  // Identical oracles get the same verdict: score each distinct one once, weighted by its count.
  const distinct = new Map<string, { answer: unknown; count: number }>();
  for (const answer of oracles) {
    const key = canonicalJson(answer);
    const seen = distinct.get(key);
    if (seen) seen.count++;
    else distinct.set(key, { answer, count: 1 });
  }
  const truths = [...distinct.values()];
  const byRule = ruleCandidates(kind, oracles, rules.worldFactor ?? DEFAULT_WORLD_FACTOR);
  const measured = isWorldKind(kind) && VALUE[kind] !== undefined;
  // A measured number's best window starts at a truth: its band edges first.
  const candidates = [
    ...(measured ? byRule : []),
    ...[...truths].sort((a, b) => b.count - a.count).map((t) => t.answer),
    ...(measured ? [] : byRule),
  ].slice(
    0,
    Math.max(1, Math.floor((measured ? MEASURED_COMPARISONS : COMPARISONS) / truths.length)),
  );
  let best: { answer: unknown; correct: number } = { answer: candidates[0], correct: -1 };
  for (const answer of candidates) {
    let correct = 0;
    for (const t of truths) if (passes(kind, t.answer, answer, rules)) correct += t.count;
    if (correct > best.correct) best = { answer, correct };
  }
  const total = oracles.length;
  return {
    answer: best.answer,
    correct: best.correct,
    total,
    accuracy: Math.round((best.correct / total) * 10_000) / 10_000,
  };
}

/** Every kind's chance level over the scored records that carry their oracle. */
export function chanceLevels(
  records: readonly InstanceRecord[],
  rules: ScoringRules = {},
): Record<string, ChanceLevel> {
  const byKind = new Map<string, unknown[]>();
  for (const r of records) {
    // B1/B2 have no constant floor: a reply is scored by running it, not by comparing it.
    if (!r.scored || r.oracle === undefined || isCometKind(r.kind)) continue;
    const list = byKind.get(r.kind) ?? [];
    list.push(r.oracle);
    byKind.set(r.kind, list);
  }
  const levels: Record<string, ChanceLevel> = {};
  for (const [kind, oracles] of byKind) {
    const level = chanceLevel(kind, oracles, rules);
    if (level) levels[kind] = level;
  }
  return levels;
}
