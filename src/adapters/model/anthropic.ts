import type { ChatMessage, ConversationMessage, ToolSpec } from '../../contracts/messages.js';
import { MalformedResponseError } from './faults.js';
import { defined, type Protocol } from './protocol.js';
import { toolCallsOf } from './tool-calls.js';

interface MessagesResponse {
  type?: string;
  content?: {
    type?: string;
    text?: string;
    thinking?: string;
    id?: unknown;
    name?: unknown;
    input?: unknown;
  }[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Anthropic's API version header; the messages shape used here is stable under it. */
export const ANTHROPIC_VERSION = '2023-06-01';

type Block = Record<string, unknown>;

/** A call's arguments as the object Anthropic's `tool_use.input` must be (unparsable text: empty). */
function inputOf(args: string): unknown {
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * The conversation as Anthropic spells it: the system prompt apart, tool calls as `tool_use`
 * blocks of the assistant's turn, results as `tool_result` blocks of a user turn, and
 * consecutive turns of one role merged (the API wants them alternating).
 */
function anthropicMessages(messages: readonly ConversationMessage[]): Block[] {
  const turns: { role: string; content: Block[] }[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const role = m.role === 'tool' ? 'user' : m.role;
    const blocks: Block[] =
      m.role === 'tool'
        ? m.results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.content }))
        : [
            ...(m.content ? [{ type: 'text', text: m.content }] : []),
            ...('toolCalls' in m
              ? m.toolCalls.map((c) => ({
                  type: 'tool_use',
                  id: c.id,
                  name: c.name,
                  input: inputOf(c.arguments),
                }))
              : []),
          ];
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  // A turn of plain text alone stays a string, as the one-shot prompts always sent it.
  return turns.map((t) =>
    t.content.length === 1 && t.content[0]!.type === 'text'
      ? { role: t.role, content: t.content[0]!.text }
      : t,
  );
}

function anthropicTools(tools: readonly ToolSpec[] | undefined): Block {
  return tools?.length
    ? {
        tools: tools.map((t) => ({
          name: t.name,
          description: t.description,
          input_schema: t.parameters,
        })),
      }
    : {};
}

/**
 * Anthropic messages: the system prompt is a top-level field, the key goes in
 * `x-api-key`, the answer is the text blocks and extended thinking arrives in
 * `thinking` blocks (kept apart); tool calls are `tool_use` blocks.
 * `max_tokens` as stop reason means truncated.
 */
export const anthropic: Protocol = {
  name: 'anthropic',
  path: '/messages',
  // Paged, 20 to a page by default; 1000 is the most one page holds.
  modelsPath: '/models?limit=1000',
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }),
  tools: true,
  // Anthropic has no seed parameter: samples differ only through temperature.
  buildBody: (model, messages, settings, _sample, tools) => ({
    ...defined({
      model,
      system:
        messages
          .filter((m): m is ChatMessage => m.role === 'system')
          .map((m) => m.content)
          .join('\n\n') || undefined,
      messages: anthropicMessages(messages),
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      top_p: settings.topP,
      stop_sequences: settings.stop?.length ? settings.stop : undefined,
    }),
    ...anthropicTools(tools),
    ...settings.extraBody,
  }),
  decode: (json) => {
    const response = json as MessagesResponse;
    if (!Array.isArray(response?.content))
      throw new MalformedResponseError('reply has no content blocks');
    const text = response.content
      .filter((b) => b?.type === 'text')
      .map((b) => b.text ?? '')
      .join('');
    const thinking = response.content
      .filter((b) => b?.type === 'thinking')
      .map((b) => b.thinking ?? '')
      .join('\n');
    const calls = toolCallsOf(
      response.content
        .filter((b) => b?.type === 'tool_use')
        .map((b) => ({ id: b.id, name: b.name, arguments: b.input ?? {} })),
    );
    return {
      text,
      reasoning: thinking || undefined,
      finishReason:
        response.stop_reason === 'max_tokens' ? 'length' : (response.stop_reason ?? undefined),
      tokensIn: response.usage?.input_tokens ?? 0,
      tokensOut: response.usage?.output_tokens ?? 0,
      ...(calls.length ? { toolCalls: calls } : {}),
    };
  },
};
