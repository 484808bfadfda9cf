/** One chat message of a prompt, as every protocol receives it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A tool the model may call (`context: repo`): its name, what it does, its arguments' JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One call the model asked for: the protocol's id for it, the tool, the arguments as the model wrote them (JSON text). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The model's turn that asked for tools (with any text it wrote beside the calls). */
export interface ToolCallMessage {
  role: 'assistant';
  content: string;
  toolCalls: ToolCall[];
}

/** What the tools answered, one result per call of the turn before, in its order. */
export interface ToolResultsMessage {
  role: 'tool';
  results: { id: string; name: string; content: string }[];
}

/** A message of a conversation: a prompt's, or one of a tool exchange. */
export type ConversationMessage = ChatMessage | ToolCallMessage | ToolResultsMessage;
