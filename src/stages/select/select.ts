import { UsageError } from '../../errors.js';
import { kindsMatching, QUESTION_KINDS, type QuestionKind } from '../../contracts/kinds.js';
import { sha256 } from '../../util/hash.js';
import { nearest } from '../../util/closest.js';

/** What to run out of the loaded instances. */
export interface Selection {
  /** Category tokens: kinds (`S1_IntraProceduralCFG`), prefixes (`S1`) or names (`Loops`). */
  categories?: string[];
  /** Exact instance ids. */
  ids?: string[];
  /** Keep at most this many, chosen by `seed`. */
  sample?: number;
  seed?: number;
}

interface Selectable {
  instance: { id: string; kind: QuestionKind; environment?: string };
}

/**
 * A seeded sample of `n`, stratified by kind × environment (the package):
 * each stratum gets its share of `n` (largest remainders, ties by a seeded
 * hash), and within a stratum the items of lowest sha256(seed, id) rank are
 * taken — so a 200-item sample of the bundle keeps its mix of kinds and
 * packages, and a stratum's sample is stable when other instances are added.
 */
export function stratifiedSample<T extends Selectable>(
  items: readonly T[],
  n: number,
  seed: number,
): T[] {
  const strata = new Map<string, T[]>();
  for (const item of items) {
    const key = `${item.instance.kind}|${item.instance.environment ?? ''}`;
    strata.set(key, [...(strata.get(key) ?? []), item]);
  }
  const keys = [...strata.keys()].sort();
  const exact = keys.map((k) => (n * strata.get(k)!.length) / items.length);
  const quota = exact.map(Math.floor);
  const order = keys
    .map((k, i) => ({ i, rest: exact[i]! - quota[i]!, tie: sha256(String(seed), k) }))
    .sort((a, b) => b.rest - a.rest || (a.tie < b.tie ? -1 : 1));
  for (let left = n - quota.reduce((a, b) => a + b, 0), j = 0; left > 0; left--, j++)
    quota[order[j % order.length]!.i]!++;
  return keys.flatMap((k, i) =>
    strata
      .get(k)!
      .map((item) => ({ item, rank: sha256(String(seed), item.instance.id) }))
      .sort((a, b) => (a.rank < b.rank ? -1 : 1))
      .slice(0, quota[i])
      .map(({ item }) => item),
  );
}

/**
 * Filters by category and id, then samples (stratifiedSample: by kind ×
 * package, seeded, stable when other instances are added).
 * Result order is by id. Throws UsageError on an empty selection or an unknown token.
 */
export function selectInstances<T extends Selectable>(all: T[], selection: Selection): T[] {
  let chosen = all;
  if (selection.categories?.length) {
    const kinds = new Set<QuestionKind>();
    for (const token of selection.categories) {
      const matched = kindsMatching(token);
      if (!matched.length) throw new UsageError(unknownKind(token));
      matched.forEach((k) => kinds.add(k));
    }
    chosen = chosen.filter((item) => kinds.has(item.instance.kind));
  }
  if (selection.ids?.length) {
    const ids = new Set(selection.ids);
    chosen = chosen.filter((item) => ids.has(item.instance.id));
  }
  if (selection.sample !== undefined && selection.sample < chosen.length)
    chosen = stratifiedSample(chosen, selection.sample, selection.seed ?? 0);
  if (!chosen.length) {
    throw new UsageError(
      `The selection is empty: ${all.length} instance(s) loaded, none matched ` +
        `${JSON.stringify(selection)}. Widen --categories / --ids or raise --sample.`,
    );
  }
  return [...chosen].sort((a, b) => (a.instance.id < b.instance.id ? -1 : 1));
}

/**
 * Why `token` selects nothing, with the closest names a token may be (a kind, its code `S2`, its
 * name `Loops`) when one is near, and every kind.
 */
export function unknownKind(token: string): string {
  const names = [...new Set(QUESTION_KINDS.flatMap((k) => [k, ...k.split('_')]))];
  const closest = nearest(token.trim(), names);
  const kinds = QUESTION_KINDS.join(', ');
  return (
    `--categories: "${token}" names no question kind.` +
    (closest.length
      ? ` Did you mean ${closest.map((n) => `"${n}" (${kindsMatching(n).join(', ')})`).join(' or ')}?`
      : '') +
    ` A token is a kind, its code or its name, e.g. S2, Loops or S2_Loops; the kinds: ${kinds}.`
  );
}
