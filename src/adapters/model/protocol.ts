import type { ChatMessage, ConversationMessage, ToolSpec } from '../../contracts/messages.js';
import type { Completion, GenerationSettings } from '../../contracts/model.js';

/** What a protocol's decoder returns; the client adds latency and retries. */
export type DecodedReply = Omit<Completion, 'latencyMs' | 'retries' | 'cached'>;

/**
 * One wire protocol: how to address it, authenticate, build a request body and
 * decode a reply. Adding a protocol means adding one file that exports one of
 * these, and listing it in protocols.ts.
 */
export interface Protocol {
  /** The `--api` value that selects it. */
  readonly name: string;
  /** Appended to the API base URL, e.g. `/chat/completions`. */
  readonly path: string;
  /**
   * Where the server lists its models (GET, appended to the base; `data[].id`
   * per model), for the preflight's check of `--model`; absent: no list.
   */
  readonly modelsPath?: string;
  authHeaders(apiKey: string): Record<string, string>;
  /** Whether the protocol can offer tools (`context: repo`); one that cannot refuses before any work. */
  readonly tools: boolean;
  /**
   * The request body. `tools` are offered when given (a protocol without tools never gets
   * them: the options refuse `context: repo` for it); a conversation's tool turns are spelled
   * the protocol's way.
   */
  buildBody(
    model: string,
    messages: readonly ConversationMessage[],
    settings: GenerationSettings,
    sample: number,
    tools?: readonly ToolSpec[],
  ): Record<string, unknown>;
  /** Decodes a 200 body; throws MalformedResponseError when it holds no usable reply. */
  decode(json: unknown): DecodedReply;
}

/** The prompt's messages alone, for a protocol without tools (a tool turn there is a caller's bug). */
export function chatOnly(messages: readonly ConversationMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role === 'tool' || 'toolCalls' in m)
      throw new Error('this protocol has no tools: a conversation with tool turns cannot be sent');
    return m;
  });
}

/** The seed for sample i: distinct per sample so k samples are not k copies. */
export function sampleSeed(settings: GenerationSettings, sample: number): number | undefined {
  return settings.seed === undefined ? undefined : settings.seed + sample;
}

/** Drops undefined fields so servers that reject unknown nulls see only what was set. */
export function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/**
 * The generation settings as both OpenAI protocols spell them (chat and
 * legacy completions differ only in `messages` vs `prompt`); undefined ones dropped.
 */
export function openaiSettings(
  settings: GenerationSettings,
  sample: number,
): Record<string, unknown> {
  return defined({
    temperature: settings.temperature,
    max_tokens: settings.maxTokens,
    top_p: settings.topP,
    seed: sampleSeed(settings, sample),
    stop: settings.stop?.length ? settings.stop : undefined,
  });
}
