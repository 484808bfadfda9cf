import type { ConversationMessage } from '../../contracts/messages.js';
import { toolCallsOf } from './tool-calls.js';
import { redact } from './faults.js';
import { preflight } from './preflight.js';
import { health, waitForEndpoint } from './readiness.js';
import type { DecodedReply, Protocol } from './protocol.js';
import { postJson, type TransportOptions } from './transport.js';
import type {
  ClientIdentity,
  CompleteOptions,
  Completion,
  GenerationSettings,
  ModelClient,
  PreflightOptions,
} from '../../contracts/model.js';

/** A model behind one protocol over HTTP, with the shared transport policy. */
export class HttpModelClient implements ModelClient {
  readonly identity: ClientIdentity;
  private readonly transport: TransportOptions;
  private readonly secrets: string[];

  constructor(
    private readonly protocol: Protocol,
    /** The API base URL as the options parsed it (model/endpoint.ts): http(s), no trailing slash. */
    readonly endpoint: string,
    private readonly model: string,
    private readonly settings: GenerationSettings,
    transport: TransportOptions,
    apiKey?: string,
  ) {
    this.identity = { endpoint: this.endpoint, api: protocol.name, model, settings };
    this.secrets = apiKey ? [apiKey] : [];
    this.transport = apiKey
      ? {
          ...transport,
          headers: { ...transport.headers, ...protocol.authHeaders(apiKey) },
          secrets: [...(transport.secrets ?? []), apiKey],
        }
      : transport;
  }

  async complete(
    messages: ConversationMessage[],
    options: CompleteOptions = {},
  ): Promise<Completion> {
    const started = performance.now();
    const { value, retries } = await postJson(
      `${this.endpoint}${this.protocol.path}`,
      this.protocol.buildBody(
        this.model,
        messages,
        this.settings,
        options.sample ?? 0,
        options.tools,
      ),
      this.transport,
      (json) => this.protocol.decode(json),
    );
    return {
      ...asReply(value, this.secrets),
      latencyMs: Math.round(performance.now() - started),
      retries,
    };
  }

  /** The endpoint checked before any harvest (preflight.ts): the same URL, headers and body. */
  preflight(log: (message: string) => void, options: PreflightOptions = {}): Promise<void> {
    const { protocol, endpoint, model, settings, transport } = this;
    const tools = options.tools?.length ? { tools: options.tools } : {};
    const target = { protocol, endpoint, model, settings, transport, ...tools };
    return waitForEndpoint(
      endpoint,
      () => preflight(target, log),
      () => health(endpoint, transport),
      { waitMs: options.waitMs ?? 0, log, ...(options.signal ? { signal: options.signal } : {}) },
    );
  }
}

/** Text as text, whatever JSON type the server put there; objects are not answers. */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;

/**
 * A decoded reply as the rest of tracegate may assume it: strings where
 * strings belong (a number or an object in `content` is the server's
 * mistake, recorded as an empty or stringified answer, never a crash),
 * finite token counts, tool calls as toolCallsOf keeps them, and the API key removed wherever
 * the server echoed it.
 */
export function asReply(raw: DecodedReply, secrets: readonly string[]): DecodedReply {
  const text = asText(raw.text) ?? '';
  const reasoning = asText(raw.reasoning);
  const finishReason = asText(raw.finishReason);
  const toolCalls = toolCallsOf(raw.toolCalls).map((c) => ({
    ...c,
    arguments: redact(c.arguments, secrets),
  }));
  return {
    text: redact(text, secrets),
    ...(reasoning ? { reasoning: redact(reasoning, secrets) } : {}),
    ...(finishReason ? { finishReason } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    tokensIn: count(raw.tokensIn),
    tokensOut: count(raw.tokensOut),
  };
}
