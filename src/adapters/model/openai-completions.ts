import { renderAsText } from './text.js';
import { MalformedResponseError } from './faults.js';
import { chatOnly, openaiSettings, type Protocol } from './protocol.js';

interface CompletionsResponse {
  choices?: { text?: string | null; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * OpenAI (legacy) completions, for base checkpoints served without a chat
 * template: the messages are rendered as one plain-text prompt that ends
 * where the answer should begin.
 */
export const openaiCompletions: Protocol = {
  name: 'openai-completions',
  path: '/completions',
  modelsPath: '/models',
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  // A base checkpoint's plain-text prompt has no place for tool calls.
  tools: false,
  buildBody: (model, messages, settings, sample) => ({
    model,
    prompt: renderAsText(chatOnly(messages)),
    ...openaiSettings(settings, sample),
    ...settings.extraBody,
  }),
  decode: (json) => {
    const response = json as CompletionsResponse;
    const choice = response?.choices?.[0];
    if (!choice) throw new MalformedResponseError('reply has no choices');
    return {
      text: choice.text ?? '',
      finishReason: choice.finish_reason ?? undefined,
      tokensIn: response.usage?.prompt_tokens ?? 0,
      tokensOut: response.usage?.completion_tokens ?? 0,
    };
  },
};
