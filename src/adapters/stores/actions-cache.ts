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

  async restore(paths: string[], keys: CacheKeys, what?: string): Promise<string | undefined> {
    if (!cache.isFeatureAvailable()) {
      if (what) return undefined;
      this.log(
        'Actions cache service not available here: only the oracles already in the cache directory are reused.',
      );
      return undefined;
    }
    try {
      // The toolkit turns a service failure into a warning of its own and a miss.
      const hit = await cache.restoreCache(paths, keys.primary, keys.restore);
      this.log(
        hit
          ? `Restored ${what ?? 'the tracegate cache'} from ${hit}`
          : what
            ? `No ${what} in the Actions cache yet (or the service failed: see any warning above).`
            : 'No tracegate cache restored (none saved yet for this scope, or the service failed: see any warning above); harvesting what is missing.',
      );
      return hit;
    } catch (error) {
      this.warn(
        `Restoring ${what ?? 'the tracegate cache'} failed (${(error as Error).message}); ` +
          (what ? 'going on without it.' : 'harvesting instead.'),
      );
      return undefined;
    }
  }

  async save(paths: string[], keys: CacheKeys, what = 'the tracegate cache'): Promise<void> {
    if (!cache.isFeatureAvailable()) return;
    try {
      // -1: the toolkit could not reserve, upload or finalize the entry (and said why as a warning).
      const id = await cache.saveCache(paths, keys.primary);
      if (id === -1) {
        this.warn(
          `The Actions cache did not take ${what} ${keys.primary} (see the message above); the next run redoes its work.`,
        );
        return;
      }
      this.log(`Saved ${what} as ${keys.primary}`);
    } catch (error) {
      this.warn(
        `Saving ${what} failed (${(error as Error).message}); the next run redoes its work.`,
      );
    }
  }
}
