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
import type { QuestionKind } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';
import { DEFAULT_WORLD_FACTOR } from '../../families/world/score.js';
import { canonicalJson } from '../../util/hash.js';
import { passes, type ScoringRules } from './verdict.js';

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
  // The constants the family's pass rule makes worth trying (a measured number's best window
  // starts at a truth: its band edges come first).
  const byRule = familyOf(kind).constants?.(
    kind as QuestionKind,
    oracles,
    rules.worldFactor ?? DEFAULT_WORLD_FACTOR,
  ) ?? { first: [], last: [], measured: false };
  const measured = byRule.measured;
  const candidates = [
    ...byRule.first,
    ...[...truths].sort((a, b) => b.count - a.count).map((t) => t.answer),
    ...byRule.last,
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
    // A family without a constant floor (B1/B2: a reply is scored by running it) has no chance level.
    if (!r.scored || r.oracle === undefined || !familyOf(r.kind).constantFloor) continue;
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
