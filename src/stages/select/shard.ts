// Shards: a selection split over the jobs of a matrix, each cluster whole (the gate's clustered
// statistics and the baseline's pairing stay valid), balanced by what each item is expected to cost.
import type { ShardPlan } from '../../contracts/results.js';
import type { ClusterBy } from '../../contracts/comparison.js';
import type { QuestionKind } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import { clusterOf } from '../query/record.js';

/** A matrix holds at most 256 jobs (GitHub Actions): more shards than that cannot all run. */
export const MAX_SHARDS = 256;

/**
 * What an item is expected to cost, in the units of a traced item's harvest: the measured seconds
 * where known (the baseline's request latency), the kind's family's share of the whole-bundle
 * harvest otherwise (its `harvestCost`: a world-model item ~4 traced ones, a B1/B2 item ~8).
 */
export function expectedCost(kind: QuestionKind, latencyMs?: number): number {
  return familyOf(kind).harvestCost + (latencyMs ?? 0) / 1000 / TRACED_ITEM_SECONDS;
}
/** A traced item's share of a cold harvest on two cores (docs/benchmarks.md: 240 s / 1,608). */
const TRACED_ITEM_SECONDS = 0.15;

/** The cluster a shard keeps whole: the gate's (`package`: the environment), else the test's. */
export function shardCluster(l: LoadedInstance, by: ClusterBy): string {
  const c = clusterOf(l);
  return by === 'package' ? c.package : c.test;
}

/** The digest every shard of one selection shares: its ids and content, in order. */
export function selectionDigest(selected: readonly LoadedInstance[]): string {
  return sha256(canonicalJson(selected.map((l) => [l.instance.id, l.contentHash])));
}

/**
 * The selection in `count` parts: clusters whole, largest expected cost first, each to the part
 * with the least cost so far (ties: the lower part), so the parts are balanced and the same
 * selection, costs and count always give the same parts. Each part keeps the selection's order.
 */
export function planShards(
  selected: readonly LoadedInstance[],
  count: number,
  by: ClusterBy,
  cost: (l: LoadedInstance) => number,
): ShardPlan {
  const clusters = new Map<string, { ids: Set<string>; cost: number }>();
  for (const l of selected) {
    const key = shardCluster(l, by);
    const c = clusters.get(key) ?? { ids: new Set<string>(), cost: 0 };
    c.ids.add(l.instance.id);
    c.cost += cost(l);
    clusters.set(key, c);
  }
  const load = Array<number>(count).fill(0);
  const partOf = new Map<string, number>();
  const ordered = [...clusters.entries()].sort(
    ([ka, a], [kb, b]) => b.cost - a.cost || (ka < kb ? -1 : 1),
  );
  for (const [, c] of ordered) {
    const part = load.indexOf(Math.min(...load));
    load[part] = load[part]! + c.cost;
    for (const id of c.ids) partOf.set(id, part);
  }
  return {
    count,
    selection: selectionDigest(selected),
    ids: selected.map((l) => l.instance.id),
    part: selected.map((l) => partOf.get(l.instance.id)! + 1),
    expected: load.map((x) => Math.round(x * 10) / 10),
  };
}

/** The ids of part `index` (1-based) of the plan, in the selection's order. */
export function partIds(plan: ShardPlan, index: number): string[] {
  return plan.ids.filter((_, i) => plan.part[i] === index);
}

/** The instances of part `index` (1-based) of the plan, in the selection's order. */
export function shardPart(
  selected: readonly LoadedInstance[],
  plan: ShardPlan,
  index: number,
): LoadedInstance[] {
  const mine = new Set(partIds(plan, index));
  return selected.filter((l) => mine.has(l.instance.id));
}
