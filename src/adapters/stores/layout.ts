import { join } from 'node:path';

/**
 * The cache directory's layout, in one place. Everything under `oracles/`,
 * `responses/` and `views/` is content-addressed and safe to share between
 * runs and machines: those are what the Actions cache saves, with `runtimes/` and
 * `locks/` (what each environment last resolved to, so that a run whose
 * oracles are all cached needs neither an engine nor a download). The rest is
 * local to this machine (virtualenvs hold absolute paths; wheels and checkouts
 * are re-resolved) and is never saved.
 */
export interface CacheLayout {
  root: string;
  /** `<key>/oracle.json` + `context.json`. */
  oracles: string;
  /** `log/<begun>-<pid>-<nonce>.jsonl`: model replies by request key, one append-only log per writer (`<k[0:2]>/<k>.json` before). */
  responses: string;
  /** `<id>.json`: every run's answer of an instance whose runs disagreed. */
  quarantine: string;
  /** `<key>.json`: an instance's harvest failure, by oracle key (not harvested again on every run). */
  failures: string;
  /** `<k[0:2]>/<k>.json`: what a B1/B2 reply did against both versions, by instance, environment, tracer and reply. */
  verifications: string;
  /** `<digest>.json`: exported source views (what `context: repo` tools read), by environment digest. */
  views: string;
  /** `<recipe>/`: wheels resolved for a recipe, with their lock.json. */
  wheels: string;
  /** `<url hash>.git`: bare clones of remote repositories. */
  git: string;
  /** `<sha>/`: exported trees of commits. */
  checkouts: string;
  /** `<digest>/`: virtualenvs of the local backend. */
  venvs: string;
  /** `<key>.json`: what each environment last resolved to (a cached run needs no engine). */
  runtimes: string;
  /** `<recipe>.json`: the wheels (names, sha256) a recipe resolved to, without their files. */
  locks: string;
  /** `<key>/image.tar.gz`: an environment image on its way to or from the Actions cache (removed after). */
  images: string;
  /** The subdirectories a shared cache (the Actions cache) saves and restores. */
  shared: string[];
}

export function cacheLayout(root: string): CacheLayout {
  const at = (name: string) => join(root, name);
  return {
    root,
    oracles: at('oracles'),
    responses: at('responses'),
    quarantine: at('quarantine'),
    failures: at('failures'),
    verifications: at('verifications'),
    views: at('views'),
    wheels: at('wheels'),
    git: at('git'),
    checkouts: at('checkouts'),
    venvs: at('venvs'),
    runtimes: at('runtimes'),
    locks: at('locks'),
    images: at('images'),
    shared: [
      at('oracles'),
      at('responses'),
      at('runtimes'),
      at('locks'),
      at('failures'),
      at('verifications'),
      at('views'),
    ],
  };
}
