import type { TimeBudget } from './budget.js';
import { HttpModelClient } from './http-client.js';
import { PROTOCOLS, type ApiName } from './protocols.js';
import type { GenerationSettings, ModelClient } from '../../contracts/model.js';

/** Everything needed to talk to a candidate endpoint. */
export interface ClientConfig {
  api: ApiName;
  /** The API base URL as the options parsed it (model/endpoint.ts): http(s), no trailing slash. */
  endpoint: string;
  model: string;
  apiKey?: string;
  settings: GenerationSettings;
  timeoutMs: number;
  retries: number;
  backoffMs?: number;
  maxWaitMs?: number;
  maxBodyBytes?: number;
  budget?: TimeBudget;
}

/** The client for `config.api`, at an endpoint already checked where the options were parsed. */
export function createModelClient(config: ClientConfig): ModelClient {
  return new HttpModelClient(
    PROTOCOLS[config.api],
    config.endpoint,
    config.model,
    config.settings,
    {
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      backoffMs: config.backoffMs,
      maxWaitMs: config.maxWaitMs,
      maxBodyBytes: config.maxBodyBytes,
      budget: config.budget,
    },
    config.apiKey,
  );
}
