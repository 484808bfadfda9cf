/** The selected instances grouped by environment, and which of a group the cache already answers. */
import type { Environment, ResolvedEnvironment } from '../../contracts/environment.js';
import type { CachedOracle } from '../../contracts/oracle.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import { canonicalJson } from '../../util/hash.js';
import { oracleKey } from './key.js';
import { entryBelongs } from './outcome.js';
import type { RememberedFailure } from '../../contracts/ports.js';
import type { HarvestDeps } from './types.js';

/** The instances of one environment recipe (as written, in its directory). */
export interface EnvGroup {
  recipe: Environment;
  environmentDir: string;
  items: LoadedInstance[];
}

/** An instance with no valid cached oracle, and the key its oracle is stored under. */
export interface Miss {
  loaded: LoadedInstance;
  key: string;
}

/** The instances by environment, in the order each environment first appears. */
export function groupByEnvironment(selected: LoadedInstance[]): EnvGroup[] {
  const groups = new Map<string, EnvGroup>();
  for (const loaded of selected) {
    const id = canonicalJson([loaded.environment, loaded.environmentDir]);
    const group = groups.get(id) ?? {
      recipe: loaded.environment,
      environmentDir: loaded.environmentDir,
      items: [],
    };
    group.items.push(loaded);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/**
 * The group's instances without a valid cached oracle. `hit` gets each one with; only the
 * harvest loop passes it, and only it warns about a foreign entry (the prefetch asks quietly).
 */
export function missesOf(
  group: EnvGroup,
  env: ResolvedEnvironment,
  tracerDigest: string,
  deps: Pick<HarvestDeps, 'oracles' | 'warn'>,
  hit?: (loaded: LoadedInstance, entry: CachedOracle) => void,
): Miss[] {
  const misses: Miss[] = [];
  for (const loaded of group.items) {
    const key = oracleKey(loaded.contentHash, env.digest, tracerDigest);
    const entry = deps.oracles.get(key);
    if (entry && entryBelongs(entry, loaded, env.digest)) {
      hit?.(loaded, entry);
      continue;
    }
    if (entry && hit)
      deps.warn(`Cache entry ${key} does not belong to ${loaded.instance.id}; re-harvesting it.`);
    misses.push({ loaded, key });
  }
  return misses;
}

/** Runs a failure is remembered for before the instance is harvested again (docs/caching.md). */
export const RETRY_FAILED_AFTER = 10;

/**
 * The misses that need a harvest: not those that failed for the same tracer,
 * environment and instance in one of the last RETRY_FAILED_AFTER runs (unless
 * `retryFailed`). `remembered` gets each one left out (only the harvest loop
 * passes it: it counts the reuse).
 */
export function toHarvest(
  misses: Miss[],
  deps: Pick<HarvestDeps, 'failures' | 'retryFailed'>,
  remembered?: (miss: Miss, failure: RememberedFailure) => void,
): Miss[] {
  if (!deps.failures || deps.retryFailed) return misses;
  return misses.filter((miss) => {
    const failure = deps.failures!.get(miss.key);
    if (!failure || failure.reused >= RETRY_FAILED_AFTER) return true;
    remembered?.(miss, failure);
    return false;
  });
}
