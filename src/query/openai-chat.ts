import { UsageError } from '../errors.js';
import type { ChatMessage } from '../prompt/build.js';
import type { Completion, GenerationSettings, ModelClient } from './client.js';
import { postJson, type TransportOptions } from './transport.js';

interface ChatResponse {
  choices?: {
    message?: { content?: string | null; reasoning_content?: string | null };
    finish_reason?: string;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** Validates an API base URL such as `http://127.0.0.1:8000/v1`. */
export function parseEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UsageError(
      `--endpoint "${endpoint}" is not a URL; give the API base URL, e.g. http://127.0.0.1:8000/v1`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--endpoint "${endpoint}" must start with http:// or https://`);
  }
  return endpoint.replace(/\/+$/, '');
}

/** OpenAI-compatible chat completions (vLLM, SGLang, TGI, llama.cpp, Ollama, hosted APIs). */
export class OpenAIChatClient implements ModelClient {
  readonly endpoint: string;

  constructor(
    endpoint: string,
    private readonly model: string,
    private readonly settings: GenerationSettings,
    private readonly transport: TransportOptions,
  ) {
    this.endpoint = parseEndpoint(endpoint);
  }

  async complete(messages: ChatMessage[]): Promise<Completion> {
    const started = performance.now();
    const { json, retries } = await postJson(
      `${this.endpoint}/chat/completions`,
      {
        model: this.model,
        messages,
        temperature: this.settings.temperature,
        max_tokens: this.settings.maxTokens,
      },
      this.transport,
    );
    const response = json as ChatResponse;
    const choice = response.choices?.[0];
    return {
      text: choice?.message?.content ?? '',
      reasoning: choice?.message?.reasoning_content ?? undefined,
      finishReason: choice?.finish_reason,
      tokensIn: response.usage?.prompt_tokens ?? 0,
      tokensOut: response.usage?.completion_tokens ?? 0,
      latencyMs: Math.round(performance.now() - started),
      retries,
    };
  }
}
