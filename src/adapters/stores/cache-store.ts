/**
 * Keys of the cache directory (oracles + model responses) in a shared cache.
 * Entries are immutable, so each run attempt saves under its own key;
 * restore falls back from the same selection and model revision, to the same
 * selection, to anything — every file inside is content-addressed, so a
 * partial match is always safe to use.
 */
export interface CacheKeys {
  primary: string;
  restore: string[];
}

/** A cache shared between runs (as actions/cache puts state behind a provider). */
export interface CacheStore {
  readonly name: string;
  /**
   * Restores `paths`; returns the key that matched, if any. A miss only costs
   * time. `what` names the entry in messages (default: the tracegate cache).
   */
  restore(paths: string[], keys: CacheKeys, what?: string): Promise<string | undefined>;
  save(paths: string[], keys: CacheKeys, what?: string): Promise<void>;
}

/** No shared cache: the local cache directory is all there is. */
export const noCacheStore: CacheStore = {
  name: 'none',
  restore: () => Promise.resolve(undefined),
  save: () => Promise.resolve(),
};
