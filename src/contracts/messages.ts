/** One chat message of a prompt, as every protocol receives it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
