import type { ToolCall } from '../../contracts/messages.js';

/** Calls read from one reply at most: a model that asks for more gets the first ones. */
export const MAX_CALLS_PER_REPLY = 16;
/** A call's arguments longer than this are cut (they then fail to parse, and the model is told). */
const MAX_ARGUMENT_CHARS = 16 * 1024;

/**
 * The tool calls of a decoded reply, as the rest of tracegate may assume them: string ids (made
 * up in order where the server gave none, unique within the reply), string names, arguments as
 * JSON text (an object the server already parsed is written back as JSON), at most
 * MAX_CALLS_PER_REPLY. Whatever the server sent, never a crash.
 */
export function toolCallsOf(
  raw: readonly { id?: unknown; name?: unknown; arguments?: unknown }[] | unknown,
): ToolCall[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  return raw.slice(0, MAX_CALLS_PER_REPLY).map((c: Record<string, unknown> | null, i) => {
    let id = typeof c?.id === 'string' && c.id ? c.id.slice(0, 128) : `call_${i}`;
    if (seen.has(id)) id = `${id}_${i}`;
    seen.add(id);
    const args = c?.arguments;
    const text = typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args);
    return {
      id,
      name: typeof c?.name === 'string' ? c.name.slice(0, 128) : '',
      arguments: text.slice(0, MAX_ARGUMENT_CHARS),
    };
  });
}
