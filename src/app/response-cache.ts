import { CachingClient } from '../adapters/model/caching-client.js';
import type { ModelClient } from '../contracts/model.js';
import type { ResponseCache } from '../contracts/ports.js';
import { promptId, type ContextMode } from '../stages/prompt/build.js';

/**
 * The client answers come from: through the response cache when there is one
 * AND the model revision is known. Without a revision, two checkpoints served
 * under one name would be indistinguishable, so nothing is reused.
 */
export function withResponseCache(
  client: ModelClient,
  cache: ResponseCache | undefined,
  revision: string | undefined,
  log: (message: string) => void,
  mode: ContextMode = 'slice',
): ModelClient {
  if (!cache) return client;
  if (!revision) {
    log(
      'No --model-revision: the response cache is off (answers could belong to another checkpoint).',
    );
    return client;
  }
  return new CachingClient(client, cache, revision, promptId(mode));
}
