import type { ChatMessage } from '../contracts/messages.js';
import type {
  ClientIdentity,
  CompleteOptions,
  Completion,
  GenerationSettings,
  ModelClient,
} from './client.js';
import { parseEndpoint } from './endpoint.js';
import type { Protocol } from './protocol.js';
import { postJson, type TransportOptions } from './transport.js';

/** A model behind one protocol over HTTP, with the shared transport policy. */
export class HttpModelClient implements ModelClient {
  readonly endpoint: string;
  readonly identity: ClientIdentity;
  private readonly transport: TransportOptions;

  constructor(
    private readonly protocol: Protocol,
    endpoint: string,
    private readonly model: string,
    private readonly settings: GenerationSettings,
    transport: TransportOptions,
    apiKey?: string,
  ) {
    this.endpoint = parseEndpoint(endpoint);
    this.identity = { endpoint: this.endpoint, api: protocol.name, model, settings };
    this.transport = apiKey
      ? {
          ...transport,
          headers: { ...transport.headers, ...protocol.authHeaders(apiKey) },
          secrets: [...(transport.secrets ?? []), apiKey],
        }
      : transport;
  }

  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    const started = performance.now();
    const { value, retries } = await postJson(
      `${this.endpoint}${this.protocol.path}`,
      this.protocol.buildBody(this.model, messages, this.settings, options.sample ?? 0),
      this.transport,
      (json) => this.protocol.decode(json),
    );
    return { ...value, latencyMs: Math.round(performance.now() - started), retries };
  }
}
