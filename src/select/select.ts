import { UsageError } from '../errors.js';
import { kindsMatching, type QuestionKind } from '../contracts/kinds.js';
import { sha256 } from '../util/hash.js';

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
  instance: { id: string; kind: QuestionKind };
}

/**
 * Filters by category and id, then samples. Sampling ranks instances by
 * sha256(seed, id), so a sample is stable when unrelated instances are added.
 * Result order is by id. Throws UsageError on an empty selection or an unknown token.
 */
export function selectInstances<T extends Selectable>(all: T[], selection: Selection): T[] {
  let chosen = all;
  if (selection.categories?.length) {
    const kinds = new Set<QuestionKind>();
    for (const token of selection.categories) {
      const matched = kindsMatching(token);
      if (!matched.length) throw new UsageError(`--categories: "${token}" names no question kind`);
      matched.forEach((k) => kinds.add(k));
    }
    chosen = chosen.filter((item) => kinds.has(item.instance.kind));
  }
  if (selection.ids?.length) {
    const ids = new Set(selection.ids);
    chosen = chosen.filter((item) => ids.has(item.instance.id));
  }
  if (selection.sample !== undefined && selection.sample < chosen.length) {
    const seed = String(selection.seed ?? 0);
    chosen = [...chosen]
      .map((item) => ({ item, rank: sha256(seed, item.instance.id) }))
      .sort((a, b) => (a.rank < b.rank ? -1 : 1))
      .slice(0, selection.sample)
      .map(({ item }) => item);
  }
  if (!chosen.length) {
    throw new UsageError(
      `The selection is empty: ${all.length} instance(s) loaded, none matched ` +
        `${JSON.stringify(selection)}. Widen --categories / --ids or raise --sample.`,
    );
  }
  return [...chosen].sort((a, b) => (a.instance.id < b.instance.id ? -1 : 1));
}
