import type { ChatMessage } from '../../contracts/messages.js';

/**
 * The messages as one plain-text prompt for a base checkpoint (no chat
 * template): system text, the user's turn, and a cue that ends where the
 * JSON answer should begin.
 */
export function renderAsText(messages: ChatMessage[]): string {
  const parts = messages.map((m) => (m.role === 'assistant' ? `Answer:\n${m.content}` : m.content));
  return `${parts.join('\n\n')}\n\nAnswer (one JSON object):\n`;
}
