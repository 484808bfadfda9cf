import { anthropic } from './anthropic.js';
import { openaiChat } from './openai-chat.js';
import { openaiCompletions } from './openai-completions.js';
import type { Protocol } from './protocol.js';

/** Every protocol, by its `--api` name. */
export const PROTOCOLS = {
  'openai-chat': openaiChat,
  'openai-completions': openaiCompletions,
  anthropic,
} as const satisfies Record<string, Protocol>;

export type ApiName = keyof typeof PROTOCOLS;
export const API_NAMES = Object.keys(PROTOCOLS) as [ApiName, ...ApiName[]];
