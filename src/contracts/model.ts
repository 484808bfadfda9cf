import type { ConversationMessage, ToolCall, ToolSpec } from './messages.js';

/** What the run asks of a candidate model, whatever protocol serves it (src/adapters/model/ implements it). */

/** Generation settings sent with every request (and part of every response-cache key). */
export interface GenerationSettings {
  temperature: number;
  maxTokens: number;
  topP?: number;
  /** Sampling seed; sample i of an instance is sent with seed + i so samples differ. */
  seed?: number;
  stop?: string[];
  /** Server-specific knobs merged last into the request body (e.g. vLLM's `top_k`). */
  extraBody?: Record<string, unknown>;
}

/** One model answer plus accounting. */
export interface Completion {
  text: string;
  /** Reasoning text the server returned apart from the answer (e.g. reasoning_content). */
  reasoning?: string;
  /** Normalised across protocols: `length` means the answer was cut at max tokens. */
  finishReason?: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  retries: number;
  /** Served from the response cache: no request was made. */
  cached?: boolean;
  /** The tools the model asked to call (only when it was offered tools). */
  toolCalls?: ToolCall[];
}

/** What identifies a client's answers: everything that changes them except the prompt. */
export interface ClientIdentity {
  endpoint: string;
  /** Protocol name, e.g. `openai-chat`. */
  api: string;
  model: string;
  settings: GenerationSettings;
}

export interface CompleteOptions {
  /** Which of an instance's k samples this is (0-based); keys the cache and varies the seed. */
  sample?: number;
  /** Tools offered with the request (`context: repo`); part of the cache key. */
  tools?: readonly ToolSpec[];
}

/** A candidate model behind some protocol. */
export interface ModelClient {
  readonly endpoint: string;
  readonly identity: ClientIdentity;
  complete(messages: ConversationMessage[], options?: CompleteOptions): Promise<Completion>;
  /**
   * Checks the endpoint before any harvest (its model list where the protocol
   * has one, then one tiny request the way real queries go), in seconds, and
   * throws an error that says what to fix: a dead server, a wrong URL, model
   * or key. `log` gets what it found. Absent on clients with nothing to check
   * (in-process models, tests' fakes).
   */
  preflight?(log: (message: string) => void, options?: PreflightOptions): Promise<void>;
}

export interface PreflightOptions {
  /** The tools the run offers (`context: repo`): the check offers them too. */
  tools?: readonly ToolSpec[];
  /** `endpoint-wait`: how long a server still starting is waited for, in ms (0: one check). */
  waitMs?: number;
  /** An interrupt ends the wait. */
  signal?: AbortSignal;
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

/**
 * The reply to this one request is unusable and asking again would not help
 * (e.g. a body over the size limit). Recorded against the instance; the run goes on.
 */
export class ModelResponseError extends Error {
  constructor(
    readonly errorClass: 'response_too_large' | 'malformed_response',
    message: string,
  ) {
    super(message);
    this.name = 'ModelResponseError';
  }
}
