import type { ConversationMessage, ToolSpec } from '../../contracts/messages.js';
import { MalformedResponseError } from './faults.js';
import { openaiSettings, type Protocol } from './protocol.js';
import { toolCallsOf } from './tool-calls.js';

interface ChatResponse {
  choices?: {
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[] | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** A conversation as OpenAI chat spells it: tool calls on the assistant's message, one `tool` message per result. */
function chatMessages(messages: readonly ConversationMessage[]): Record<string, unknown>[] {
  return messages.flatMap((m): Record<string, unknown>[] => {
    if (m.role === 'tool')
      return m.results.map((r) => ({ role: 'tool', tool_call_id: r.id, content: r.content }));
    if ('toolCalls' in m)
      return [
        {
          role: 'assistant',
          content: m.content || null,
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        },
      ];
    return [{ role: m.role, content: m.content }];
  });
}

/** Tools as OpenAI chat offers them (vLLM and SGLang serve the same shape with their tool parsers). */
function chatTools(tools: readonly ToolSpec[] | undefined): Record<string, unknown> {
  if (!tools?.length) return {};
  return {
    tools: tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    })),
    tool_choice: 'auto',
  };
}

/**
 * OpenAI-compatible chat completions (vLLM, SGLang, TGI, llama.cpp, Ollama,
 * hosted APIs). Reasoning servers put the chain of thought in
 * `reasoning_content` (vLLM, SGLang, DeepSeek) or `reasoning`; it is kept apart
 * from the answer. Tool calls arrive in `tool_calls`, their arguments as JSON text.
 */
export const openaiChat: Protocol = {
  name: 'openai-chat',
  path: '/chat/completions',
  modelsPath: '/models',
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  tools: true,
  buildBody: (model, messages, settings, sample, tools) => ({
    model,
    messages: chatMessages(messages),
    ...chatTools(tools),
    ...openaiSettings(settings, sample),
    ...settings.extraBody,
  }),
  decode: (json) => {
    const response = json as ChatResponse;
    const choice = response?.choices?.[0];
    if (!choice) throw new MalformedResponseError('reply has no choices');
    const reasoning = choice.message?.reasoning_content ?? choice.message?.reasoning ?? undefined;
    const calls = toolCallsOf(
      (choice.message?.tool_calls ?? []).map((c) => ({
        id: c?.id,
        name: c?.function?.name,
        arguments: c?.function?.arguments,
      })),
    );
    return {
      text: choice.message?.content ?? '',
      reasoning: reasoning || undefined,
      finishReason: choice.finish_reason ?? undefined,
      tokensIn: response.usage?.prompt_tokens ?? 0,
      tokensOut: response.usage?.completion_tokens ?? 0,
      ...(calls.length ? { toolCalls: calls } : {}),
    };
  },
};
