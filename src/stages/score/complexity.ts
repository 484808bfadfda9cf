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

/** Median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Fresh variants' complexity beside their originals': over the pairs (`<id>@v<epoch>` and `<id>`)
 * whose records both carry one, the medians of each side's combined score; undefined without pairs.
 */
export function variantComplexity(
  records: readonly InstanceRecord[],
): { pairs: number; original: number; variant: number } | undefined {
  const byId = new Map(records.map((r) => [r.id, r]));
  const pairs = records.flatMap((v) => {
    const of = /^(.*)@v\d+$/.exec(v.id)?.[1];
    const original = of === undefined ? undefined : byId.get(of);
    return v.complexity !== undefined && original?.complexity !== undefined
      ? [[original.complexity, v.complexity] as const]
      : [];
  });
  if (!pairs.length) return undefined;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    pairs: pairs.length,
    original: round(median(pairs.map((p) => p[0]))),
    variant: round(median(pairs.map((p) => p[1]))),
  };
}
