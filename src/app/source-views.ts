import type { ResolvedEnvironment } from '../contracts/environment.js';
import type { HarvestBackend } from '../contracts/harvest-backend.js';
import type { CachedOracle } from '../contracts/oracle.js';
import type { SourceView, SourceViewStore } from '../contracts/source-view.js';
import type { LoadedInstance } from '../contracts/suite.js';
import { messageOf } from '../errors.js';
import { SourceTree } from '../stages/tools/tree.js';
import type { InstanceRecord } from '../contracts/results.js';
import { unaskedRecord } from '../stages/query/record.js';
import { oracleDigest } from '../stages/kinds/digest.js';

export interface SourceViewDeps {
  /** The harvest's backend (created on first use): it exports a view its store lacks. */
  backend: () => HarvestBackend;
  /** Views by environment digest (none: each run exports its own). */
  store?: SourceViewStore;
  log: (message: string) => void;
}

/** Each item's tree for its tools, or why it has none (its record says so: `source_unavailable`). */
export type TreeOf = Map<string, SourceTree | { unavailable: string }>;

/**
 * The trees `context: repo` items read: each environment's exported source (from the store by
 * its digest, else exported from its image once, and stored), with the item's own test files
 * laid over it as the tracer read them in the sandbox (the oracle's context: nothing is read
 * from the host). One environment that cannot be exported costs only its own items.
 */
export async function sourceTrees(
  items: readonly { loaded: LoadedInstance; entry: CachedOracle }[],
  resolved: ReadonlyMap<string, ResolvedEnvironment> | undefined,
  deps: SourceViewDeps,
): Promise<TreeOf> {
  const views = new Map<string, Promise<SourceView>>();
  const trees: TreeOf = new Map();
  for (const { loaded, entry } of items) {
    const id = loaded.instance.id;
    const env =
      resolved?.get(id) ?? (loaded.variant ? resolved?.get(loaded.variant.of) : undefined);
    if (!env) {
      trees.set(id, { unavailable: 'its environment was not resolved in this run' });
      continue;
    }
    let view = views.get(env.digest);
    if (!view) {
      view = viewOf(env, deps);
      view.catch(() => undefined); // reported per item below
      views.set(env.digest, view);
    }
    try {
      const overlay = (entry.context.tests ?? []).map((t) => ({ path: t.name, text: t.source }));
      trees.set(id, new SourceTree(await view, overlay));
    } catch (error) {
      trees.set(id, { unavailable: messageOf(error) });
    }
  }
  return trees;
}

/** One environment's view: stored, or exported from its image and stored. */
async function viewOf(env: ResolvedEnvironment, deps: SourceViewDeps): Promise<SourceView> {
  const stored = deps.store?.get(env.digest);
  if (stored) return stored;
  const backend = deps.backend();
  if (!backend.exportSource)
    throw new Error(
      `the ${backend.name} backend cannot export the source of environment "${env.recipe.name}" ` +
        'for the repository tools: harvest with --backend docker, or use --context slice',
    );
  await backend.ensureAvailable();
  const started = performance.now();
  const view = await backend.exportSource(env);
  deps.store?.put(env.digest, view);
  deps.log(
    `Source view of environment "${env.recipe.name}": ${Object.keys(view.files).length} files ` +
      `from ${view.origin} in its image (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return view;
}

/**
 * `context: repo`: each item with the tree its tools read; an item whose environment's source
 * could not be exported is recorded as such (`source_unavailable`, an infrastructure failure:
 * never paired) through `keep`, and not asked.
 */
export async function withTrees<T extends { loaded: LoadedInstance; entry: CachedOracle }>(
  items: readonly T[],
  resolved: ReadonlyMap<string, ResolvedEnvironment> | undefined,
  deps: SourceViewDeps,
  keep: (record: InstanceRecord) => void,
): Promise<(T & { tree: SourceTree })[]> {
  if (!items.length) return [];
  const trees = await sourceTrees(items, resolved, deps);
  return items.flatMap((item) => {
    const { loaded, entry } = item;
    const tree = trees.get(loaded.instance.id);
    if (tree instanceof SourceTree) return [{ ...item, tree }];
    keep(
      unaskedRecord(
        loaded,
        'source_unavailable',
        `no source for the repository tools: ${tree?.unavailable ?? 'not exported'}`,
        { scored: true, oracleDigest: oracleDigest(entry.oracle) },
      ),
    );
    return [];
  });
}
