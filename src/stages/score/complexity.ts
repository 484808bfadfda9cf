import type { InstanceRecord, KindSummary } from '../../contracts/results.js';

/**
 * The report's complexity bands, fixed cut points on the combined score (0..10; the tracer's
 * queries/complexity.py): fixed, so a band means the same items in every run and on every
 * selection (bands by quantile would move with what a run selects).
 */
export const COMPLEXITY_BANDS = [
  { band: 'easy', below: 2.5 },
  { band: 'medium', below: 5 },
  { band: 'hard', below: 7.5 },
  { band: 'very hard', below: Infinity },
] as const;
export type ComplexityBand = (typeof COMPLEXITY_BANDS)[number]['band'];

/** The band a combined complexity score falls in. */
export function bandOf(score: number): ComplexityBand {
  return COMPLEXITY_BANDS.find((b) => score < b.below)!.band;
}

/**
 * Accuracy by complexity band over the scored records that carry a complexity (traced kinds
 * harvested by a tracer that measures it), in band order; undefined when none does. A model that
 * holds its score only on easy items shows here.
 */
export function byComplexity(
  scored: readonly InstanceRecord[],
  summarise: (records: InstanceRecord[]) => KindSummary,
): Record<string, KindSummary> | undefined {
  const measured = scored.filter((r) => r.complexity !== undefined);
  if (!measured.length) return undefined;
  const bands: Record<string, KindSummary> = {};
  for (const { band } of COMPLEXITY_BANDS) {
    const members = measured.filter((r) => bandOf(r.complexity!) === band);
    if (members.length) bands[band] = summarise(members);
  }
  return bands;
}
