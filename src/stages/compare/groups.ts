import type { GatePolicy, GroupRow } from '../../contracts/comparison.js';
import { decideRows, estimate } from './rows.js';
import type { Pair } from './pairing.js';

/** The report's groups of kinds, by the kind's code letter. */
export const KIND_GROUPS = [
  { group: 'traced, single test', prefix: 'S' },
  { group: 'traced, several tests', prefix: 'M' },
  { group: 'world model', prefix: 'W' },
  { group: 'bug reasoning', prefix: 'B' },
] as const;

/**
 * Each group's kinds pooled, estimated as a kind is, with Holm among the groups only: for the
 * report, where kinds are too small to decide alone. Never part of the verdict.
 */
export function groupRows(pairs: readonly Pair[], policy: GatePolicy, alpha: number): GroupRow[] {
  const groups = KIND_GROUPS.map((g) => ({
    ...g,
    pairs: pairs.filter((p) => p.kind.startsWith(g.prefix)),
  })).filter((g) => g.pairs.length);
  const estimated = groups.map((g) => estimate(g.pairs, policy, alpha));
  decideRows(estimated, policy, alpha);
  return groups.map((g, i) => ({
    group: g.group,
    kinds: [...new Set(g.pairs.map((p) => p.kind))].sort(),
    ...estimated[i]!.row,
  }));
}
