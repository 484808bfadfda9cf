import type { ConversationMessage, ToolSpec } from '../../contracts/messages.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import type { ResponseCache } from '../../contracts/ports.js';
import type {
  ClientIdentity,
  CompleteOptions,
  Completion,
  ModelClient,
} from '../../contracts/model.js';

/** Everything an answer depends on. Two checkpoints differ in `revision`, so never share a key. */
export interface ResponseKeyParts {
  identity: ClientIdentity;
  revision: string;
  promptVersion: string;
  messages: readonly ConversationMessage[];
  sample: number;
  /** The tools offered (`context: repo`): with the messages, the whole transcript so far keys the turn. */
  tools?: readonly ToolSpec[];
}

/**
 * The cache key: endpoint, model, model revision, protocol, generation
 * settings, prompt version, the prompt's hash (with tools: the conversation so far, every tool
 * result included) and the sample index.
 */
export function responseCacheKey(parts: ResponseKeyParts): string {
  return sha256(
    canonicalJson({
      v: 1,
      endpoint: parts.identity.endpoint,
      model: parts.identity.model,
      revision: parts.revision,
      api: parts.identity.api,
      settings: parts.identity.settings,
      promptVersion: parts.promptVersion,
      prompt: sha256(canonicalJson(parts.messages)),
      sample: parts.sample,
      // Absent for one-shot prompts, so their keys stay what they were.
      ...(parts.tools?.length ? { tools: sha256(canonicalJson(parts.tools)) } : {}),
    }),
  );
}

/**
 * A client that answers from the cache when it can and stores every reply it
 * gets. Only replies are stored: failures are never cached.
 */
export class CachingClient implements ModelClient {
  constructor(
    private readonly inner: ModelClient,
    private readonly cache: ResponseCache,
    private readonly revision: string,
    private readonly promptVersion: string,
  ) {}

  get endpoint(): string {
    return this.inner.endpoint;
  }

  get identity(): ClientIdentity {
    return this.inner.identity;
  }

  async complete(
    messages: ConversationMessage[],
    options: CompleteOptions = {},
  ): Promise<Completion> {
    const key = responseCacheKey({
      identity: this.inner.identity,
      revision: this.revision,
      promptVersion: this.promptVersion,
      messages,
      sample: options.sample ?? 0,
      ...(options.tools ? { tools: options.tools } : {}),
    });
    const hit = this.cache.get(key);
    if (hit) return { ...hit, latencyMs: 0, retries: 0, cached: true };
    const completion = await this.inner.complete(messages, options);
    this.cache.put(key, completion);
    return completion;
  }
}
