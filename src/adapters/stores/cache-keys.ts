import { sha256 } from '../../util/hash.js';
import type { CacheKeys } from './cache-store.js';

const PREFIX = 'tracegate-v2-';
/** The cache service refuses a key over 512 characters or with a comma. */
export const MAX_KEY = 512;

/** Cache keys from the run's scope (tracer, environments, the selected instances) and model revision. */
export function cacheKeys(
  scopeParts: string[],
  revision: string | undefined,
  runId: string,
): CacheKeys {
  const scope = sha256(...[...scopeParts].sort()).slice(0, 16);
  const rev = sha256(revision ?? 'none').slice(0, 12);
  // The run id is the runner's (digits and a dash); anything else is hashed, so a key always fits.
  const run = /^[\w.-]{1,64}$/.test(runId) ? runId : sha256(runId).slice(0, 16);
  return {
    primary: `${PREFIX}${scope}-${rev}-${run}`,
    restore: [`${PREFIX}${scope}-${rev}-`, `${PREFIX}${scope}-`, PREFIX],
  };
}
