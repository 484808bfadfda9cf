// What a run's query stage puts between the pool and the socket, for scripts/bench-endpoint.mjs: the
// HTTP client, the response cache (on disk) in front of it, and the record writer after it.
import { CachingClient } from '../../src/adapters/model/caching-client.js';
import { createModelClient } from '../../src/adapters/model/factory.js';
import { DirResponseCache } from '../../src/adapters/stores/response-cache.js';
import { ResultsDir } from '../../src/adapters/stores/results-dir.js';
import type { ChatMessage } from '../../src/contracts/messages.js';
import type { InstanceRecord } from '../../src/contracts/results.js';
import { runPool } from '../../src/stages/query/pool.js';

export { runPool };

/** `ask(i)`: request i (its own prompt, so the cache misses) through the cache, its record appended. */
export function endpointStack(
  endpoint: string,
  dir: string,
  cached: boolean,
): (messages: ChatMessage[], id: string) => Promise<void> {
  const http = createModelClient({
    api: 'openai-chat',
    endpoint,
    model: 'bench',
    settings: { temperature: 0, maxTokens: 16 },
    timeoutMs: 60_000,
    retries: 0,
  });
  const client = cached
    ? new CachingClient(http, new DirResponseCache(`${dir}/responses`), 'rev', 'bench')
    : http;
  const sink = new ResultsDir(`${dir}/out`);
  return async (messages, id) => {
    const completion = await client.complete(messages);
    if (!cached) return;
    const record: InstanceRecord = {
      id,
      kind: 'S2_Loops',
      scored: true,
      correct: false,
      error: null,
      prediction: completion.text,
      oracle: { loop_iteration_count: 3 },
      tokensIn: completion.tokensIn,
      tokensOut: completion.tokensOut,
      latencyMs: completion.latencyMs,
      retries: completion.retries,
    };
    sink.append(record);
  };
}
