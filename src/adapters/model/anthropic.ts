import { MalformedResponseError } from './faults.js';
import { defined, type Protocol } from './protocol.js';

interface MessagesResponse {
  type?: string;
  content?: { type?: string; text?: string; thinking?: string }[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Anthropic's API version header; the messages shape used here is stable under it. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Anthropic messages: the system prompt is a top-level field, the key goes in
 * `x-api-key`, the answer is the text blocks and extended thinking arrives in
 * `thinking` blocks (kept apart). `max_tokens` as stop reason means truncated.
 */
export const anthropic: Protocol = {
  name: 'anthropic',
  path: '/messages',
  // Paged, 20 to a page by default; 1000 is the most one page holds.
  modelsPath: '/models?limit=1000',
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }),
  // Anthropic has no seed parameter: samples differ only through temperature.
  buildBody: (model, messages, settings) => ({
    ...defined({
      model,
      system:
        messages
          .filter((m) => m.role === 'system')
          .map((m) => m.content)
          .join('\n\n') || undefined,
      messages: messages.filter((m) => m.role !== 'system'),
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      top_p: settings.topP,
      stop_sequences: settings.stop?.length ? settings.stop : undefined,
    }),
    ...settings.extraBody,
  }),
  decode: (json) => {
    const response = json as MessagesResponse;
    if (!Array.isArray(response?.content))
      throw new MalformedResponseError('reply has no content blocks');
    const text = response.content
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('');
    const thinking = response.content
      .filter((b) => b.type === 'thinking')
      .map((b) => b.thinking ?? '')
      .join('\n');
    return {
      text,
      reasoning: thinking || undefined,
      finishReason:
        response.stop_reason === 'max_tokens' ? 'length' : (response.stop_reason ?? undefined),
      tokensIn: response.usage?.input_tokens ?? 0,
      tokensOut: response.usage?.output_tokens ?? 0,
    };
  },
};
