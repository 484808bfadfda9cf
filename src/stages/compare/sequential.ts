import { sha256 } from '../../util/hash.js';

/**
 * The two looks of a run with top-up, and the error rule across them:
 * Lan–DeMets Pocock-type α-spending, α₁ = α·ln(1 + (e − 1)·t) at the planned
 * information fraction t = selected / (selected + planned top-up), and the
 * second look at α₂ = α − α₁. Each look runs the whole gate (Holm over overall
 * + kinds, and the non-inferiority bound) at its own level, so by Bonferroni
 * over the looks the family-wise false-fail rate is at most α₁ + α₂ = α
 * whatever the correlation between looks — conservative next to the exact
 * group-sequential boundary, and valid when fewer items than planned are added.
 */
export interface Look {
  /** 1 for the first decision, 2 after a top-up. */
  index: number;
  /** How many looks the run may take: 1 without top-up, 2 with it. */
  of: number;
  /** The level this look tests at. */
  alpha: number;
}

/** The looks of a run: one at α without top-up; α₁ and α − α₁ with it. */
export function plannedLooks(alpha: number, selected: number, planned: number): [Look, Look?] {
  if (planned <= 0 || selected <= 0) return [{ index: 1, of: 1, alpha }];
  const t = selected / (selected + planned);
  const first = alpha * Math.log(1 + (Math.E - 1) * t);
  return [
    { index: 1, of: 2, alpha: first },
    { index: 2, of: 2, alpha: alpha - first },
  ];
}

/**
 * The instances a top-up adds: of `pool` (instances this run did not select),
 * those the baseline scored, ranked by sha256("top-up", seed, id), the first
 * `max`. The rank depends only on the seed and the ids, so any two runs with
 * the same seed — the baseline's and the candidate's — agree on the order.
 */
export function chooseTopUp<T extends { instance: { id: string } }>(
  pool: readonly T[],
  baselineScored: ReadonlySet<string>,
  seed: number,
  max: number,
): T[] {
  return pool
    .filter((item) => baselineScored.has(item.instance.id))
    .map((item) => ({ item, rank: sha256('top-up', String(seed), item.instance.id) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
    .slice(0, Math.max(0, max))
    .map(({ item }) => item);
}
