import * as cache from '@actions/cache';
import type { CacheKeys, CacheStore } from './cache-store.js';

/**
 * The GitHub Actions cache. Restoring or saving never fails a run: an
 * unavailable service, a miss or an error only costs time, said through `log`.
 */
export class ActionsCacheStore implements CacheStore {
  readonly name = 'actions';
  constructor(
    private readonly log: (message: string) => void,
    private readonly warn: (message: string) => void,
  ) {}

  async restore(paths: string[], keys: CacheKeys): Promise<string | undefined> {
    if (!cache.isFeatureAvailable()) {
      this.log(
        'Actions cache service not available here: only the oracles already in the cache directory are reused.',
      );
      return undefined;
    }
    try {
      const hit = await cache.restoreCache(paths, keys.primary, keys.restore);
      this.log(hit ? `Restored the tracegate cache from ${hit}` : 'No tracegate cache yet');
      return hit;
    } catch (error) {
      this.warn(
        `Restoring the tracegate cache failed (${(error as Error).message}); harvesting instead.`,
      );
      return undefined;
    }
  }

  async save(paths: string[], keys: CacheKeys): Promise<void> {
    if (!cache.isFeatureAvailable()) return;
    try {
      await cache.saveCache(paths, keys.primary);
      this.log(`Saved the tracegate cache as ${keys.primary}`);
    } catch (error) {
      this.warn(
        `Saving the tracegate cache failed (${(error as Error).message}); the next run redoes its work.`,
      );
    }
  }
}
