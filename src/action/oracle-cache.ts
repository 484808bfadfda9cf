import * as cache from '@actions/cache';
import * as core from '@actions/core';
import { sha256 } from '../util/hash.js';

const PREFIX = 'tracegate-oracles-v1-';

/** Cache key of the oracle directory: the selected instances × tracer × base image. */
export function oracleCacheKey(parts: string[]): string {
  return PREFIX + sha256(...[...parts].sort()).slice(0, 24);
}

/**
 * Restores the oracle cache directory with @actions/cache: the exact key, or
 * the newest entry of any selection (oracles are content-addressed inside, so
 * a partial match is still useful). Returns whether the exact key hit.
 */
export async function restoreOracles(dir: string, key: string): Promise<boolean> {
  if (!cache.isFeatureAvailable()) {
    core.info('Actions cache service not available here; oracles will be harvested.');
    return false;
  }
  try {
    const hit = await cache.restoreCache([dir], key, [PREFIX]);
    core.info(hit ? `Restored oracle cache ${hit}` : 'No oracle cache yet');
    return hit === key;
  } catch (error) {
    core.warning(
      `Restoring the oracle cache failed (${(error as Error).message}); harvesting instead.`,
    );
    return false;
  }
}

export async function saveOracles(dir: string, key: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    await cache.saveCache([dir], key);
    core.info(`Saved oracle cache ${key}`);
  } catch (error) {
    core.warning(
      `Saving the oracle cache failed (${(error as Error).message}); the next run re-harvests.`,
    );
  }
}
