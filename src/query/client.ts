import type { ChatMessage } from '../prompt/build.js';

/** Generation settings sent with every request. */
export interface GenerationSettings {
  temperature: number;
  maxTokens: number;
}

/** One model answer plus accounting. */
export interface Completion {
  text: string;
  /** Reasoning text the server returned apart from the answer (e.g. reasoning_content). */
  reasoning?: string;
  finishReason?: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  retries: number;
}

/** A candidate model behind some protocol. One implementation per protocol. */
export interface ModelClient {
  readonly endpoint: string;
  complete(messages: ChatMessage[]): Promise<Completion>;
}

/** A request the server rejected for good (4xx other than 408/429): retrying cannot help. */
export class ModelRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ModelRequestError';
  }
}
