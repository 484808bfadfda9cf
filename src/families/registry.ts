import { QUESTION_KINDS, type QuestionKind } from '../contracts/kinds.js';
import { comet } from './comet/index.js';
import type { KindFamily } from './family.js';
import { traced } from './traced/index.js';
import { world } from './world/index.js';

/** Every kind family, in the order their summaries appear in a run's results. */
export const FAMILIES: readonly KindFamily[] = [traced, world, comet];

/**
 * The kind → family table of `families`, refused when a kind is claimed twice or a known kind by
 * none: a family's decisions would otherwise depend on which one a lookup met first.
 */
export function familyTable(
  families: readonly KindFamily[],
  known: readonly string[] = QUESTION_KINDS,
): ReadonlyMap<string, KindFamily> {
  const table = new Map<string, KindFamily>();
  for (const family of families)
    for (const kind of family.kinds) {
      const other = table.get(kind);
      if (other)
        throw new Error(
          `kind ${kind} is claimed by two families (${other.name} and ${family.name}): ` +
            'each kind belongs to exactly one (src/families/registry.ts)',
        );
      table.set(kind, family);
    }
  const unclaimed = known.filter((kind) => !table.has(kind));
  if (unclaimed.length)
    throw new Error(
      `kind(s) ${unclaimed.join(', ')} claimed by no family: add them to one (src/families/registry.ts)`,
    );
  return table;
}

const TABLE = familyTable(FAMILIES);

/** The family a kind belongs to; an unknown kind is refused by name (the suite loader refuses it first). */
export function familyOf(kind: QuestionKind | string): KindFamily {
  const family = TABLE.get(kind);
  if (!family) throw new Error(`unknown question kind ${kind}: no family claims it`);
  return family;
}
