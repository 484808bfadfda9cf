import * as cache from '@actions/cache';
import * as core from '@actions/core';
import { sha256 } from '../util/hash.js';

const PREFIX = 'tracegate-v1-';

/**
 * Keys of the cache directory (oracles + model responses) in the Actions
 * cache. Entries are immutable, so each run attempt saves under its own key;
 * restore falls back from the same selection and model revision, to the same
 * selection, to anything — every file inside is content-addressed, so a
 * partial match is always safe to use.
 */
export interface CacheKeys {
  primary: string;
  restore: string[];
}

export function cacheKeys(
  scopeParts: string[],
  revision: string | undefined,
  runId: string,
): CacheKeys {
  const scope = sha256(...[...scopeParts].sort()).slice(0, 16);
  const rev = sha256(revision ?? 'none').slice(0, 12);
  return {
    primary: `${PREFIX}${scope}-${rev}-${runId}`,
    restore: [`${PREFIX}${scope}-${rev}-`, `${PREFIX}${scope}-`, PREFIX],
  };
}

/** Restores the cache directory; a miss or an unavailable service only costs time. */
export async function restoreCacheDir(dir: string, keys: CacheKeys): Promise<void> {
  if (!cache.isFeatureAvailable()) {
    core.info('Actions cache service not available here; oracles will be harvested.');
    return;
  }
  try {
    const hit = await cache.restoreCache([dir], keys.primary, keys.restore);
    core.info(hit ? `Restored the tracegate cache from ${hit}` : 'No tracegate cache yet');
  } catch (error) {
    core.warning(
      `Restoring the tracegate cache failed (${(error as Error).message}); harvesting instead.`,
    );
  }
}

/** Saves the cache directory — also after a failed run, so a re-run does not redo its work. */
export async function saveCacheDir(dir: string, keys: CacheKeys): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    await cache.saveCache([dir], keys.primary);
    core.info(`Saved the tracegate cache as ${keys.primary}`);
  } catch (error) {
    core.warning(
      `Saving the tracegate cache failed (${(error as Error).message}); the next run redoes its work.`,
    );
  }
}
