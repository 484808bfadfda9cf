import { sha256 } from '../../util/hash.js';
import type { CacheKeys } from './cache-store.js';

const PREFIX = 'tracegate-v2-';

/** Cache keys from the run's scope (tracer, environments, the selected instances) and model revision. */
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
