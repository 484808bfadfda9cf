import { MalformedResponseError } from './faults.js';
import { openaiSettings, type Protocol } from './protocol.js';

interface ChatResponse {
  choices?: {
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * OpenAI-compatible chat completions (vLLM, SGLang, TGI, llama.cpp, Ollama,
 * hosted APIs). Reasoning servers put the chain of thought in
 * `reasoning_content` (vLLM, SGLang, DeepSeek) or `reasoning`; it is kept apart
 * from the answer.
 */
export const openaiChat: Protocol = {
  name: 'openai-chat',
  path: '/chat/completions',
  modelsPath: '/models',
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  buildBody: (model, messages, settings, sample) => ({
    model,
    messages,
    ...openaiSettings(settings, sample),
    ...settings.extraBody,
  }),
  decode: (json) => {
    const response = json as ChatResponse;
    const choice = response?.choices?.[0];
    if (!choice) throw new MalformedResponseError('reply has no choices');
    const reasoning = choice.message?.reasoning_content ?? choice.message?.reasoning ?? undefined;
    return {
      text: choice.message?.content ?? '',
      reasoning: reasoning || undefined,
      finishReason: choice.finish_reason ?? undefined,
      tokensIn: response.usage?.prompt_tokens ?? 0,
      tokensOut: response.usage?.completion_tokens ?? 0,
    };
  },
};
