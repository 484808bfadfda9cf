import { renderAsText } from '../prompt/text.js';
import { MalformedResponseError } from './faults.js';
import { defined, sampleSeed, type Protocol } from './protocol.js';

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
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  buildBody: (model, messages, settings, sample) => ({
    ...defined({
      model,
      prompt: renderAsText(messages),
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      top_p: settings.topP,
      seed: sampleSeed(settings, sample),
      stop: settings.stop?.length ? settings.stop : undefined,
    }),
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
