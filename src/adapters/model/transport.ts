import http from 'node:http';
import https from 'node:https';
import { EndpointUnavailableError } from '../../errors.js';
import type { TimeBudget } from './budget.js';
import {
  classifyNetworkError,
  isTransientStatus,
  MalformedResponseError,
  redact,
  rejectionMessage,
  retryAfterMs,
  snippet,
  TransientError,
} from './faults.js';
import { ModelRequestError, ModelResponseError } from '../../contracts/model.js';

export interface TransportOptions {
  /** Per-attempt timeout, covering the whole body. */
  timeoutMs: number;
  /** Retries after the first attempt for transient failures. */
  retries: number;
  /** Base of the exponential backoff (doubled per retry, with full jitter). */
  backoffMs?: number;
  /** Cap for one wait, including a server's Retry-After. */
  maxWaitMs?: number;
  /** Largest body read; a bigger one is abandoned as `response_too_large`. */
  maxBodyBytes?: number;
  /** Total budget shared by all requests of the run. */
  budget?: TimeBudget;
  headers?: Record<string, string>;
  /** Strings never to print (the API key), in case a server echoes them. */
  secrets?: string[];
  /**
   * A new connection, not one kept alive from earlier requests (the preflight: a socket the
   * server closed while idle must not read as a dead server).
   */
  freshConnection?: boolean;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * POSTs JSON and returns `decode(parsed body)`, retrying transient failures
 * (connection refused or reset, timeouts, 408/429/5xx, garbled bodies and
 * whatever `decode` rejects as MalformedResponseError) with exponential
 * backoff and full jitter, honouring Retry-After. Ends in
 * EndpointUnavailableError when retries or the time budget run out, in
 * ModelRequestError (with the server's message) on other 4xx, and in
 * ModelResponseError on a body over the size limit or when every attempt
 * got a 2xx whose body is no reply (`42`, no choices): the server answers,
 * this request's reply is what is broken, so it costs this item alone.
 */
export async function postJson<T>(
  url: string,
  body: unknown,
  options: TransportOptions,
  decode: (json: unknown) => T,
): Promise<{ value: T; retries: number }> {
  const backoff = options.backoffMs ?? 500;
  const maxWait = options.maxWaitMs ?? 30_000;
  const secrets = options.secrets ?? [];
  const payload = JSON.stringify(body);
  let last: TransientError | undefined;
  let malformed = 0;
  const giveUp = (why: string): EndpointUnavailableError =>
    new EndpointUnavailableError(url, redact(why, secrets));
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) {
      const exp = Math.min(maxWait, backoff * 2 ** (attempt - 1));
      const wait =
        last?.retryAfterMs !== undefined
          ? Math.min(maxWait, last.retryAfterMs)
          : Math.random() * exp;
      const left = options.budget?.remainingMs() ?? Infinity;
      if (wait >= left)
        throw giveUp(
          `the time budget of ${options.budget!.totalMs / 1000}s ends before the next retry ` +
            `(last failure: ${last?.message ?? 'none'})`,
        );
      await new Promise((r) => setTimeout(r, wait));
    }
    const left = options.budget?.remainingMs() ?? Infinity;
    if (left <= 0)
      throw giveUp(
        `the time budget of ${options.budget!.totalMs / 1000}s is spent` +
          (last ? ` (last failure: ${last.message})` : ''),
      );
    try {
      const raw = await attemptOnce(url, payload, options, Math.min(options.timeoutMs, left));
      const json = interpret(url, raw);
      try {
        return { value: decode(json), retries: attempt };
      } catch (error) {
        // Which reply it was: the body's first bytes beside what is missing from it.
        if (error instanceof MalformedResponseError)
          throw new MalformedResponseError(`${error.message}: ${snippet(raw.text)}`);
        throw error;
      }
    } catch (error) {
      if (error instanceof TransientError) {
        last = error;
        if (error instanceof MalformedResponseError) malformed++;
      } else if (error instanceof ModelRequestError)
        throw new ModelRequestError(error.status, redact(error.message, secrets));
      else throw error;
    }
  }
  const attempts = options.retries + 1;
  if (malformed === attempts)
    throw new ModelResponseError(
      'malformed_response',
      redact(`${last!.message} (a 2xx with no usable reply, ${attempts} attempt(s))`, secrets),
    );
  throw giveUp(`${last?.message ?? 'no answer'} (after ${attempts} attempt(s))`);
}

/**
 * Keep-alive agents without a socket cap: concurrency is bounded by the pool,
 * not here. node:http rather than fetch: on a 2-core runner fetch's
 * per-request overhead cost ~8% of throughput at 64 in flight
 * (scripts/bench-endpoint.mjs).
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: Infinity }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: Infinity }),
};

/** A complete response, not yet judged: its status, Retry-After and body. */
export interface RawResponse {
  status: number;
  retryAfter?: string;
  text: string;
}

/**
 * One request with no retry (the preflight's): POST `body` as JSON, or GET
 * when there is none, through the same agents, headers and limits as
 * postJson. Resolves with any complete response, whatever its status;
 * rejects with TransientError when none came (refused, DNS, reset, timeout)
 * and ModelResponseError on a body over the size limit.
 */
export function sendOnce(
  url: string,
  body: unknown,
  options: TransportOptions,
): Promise<RawResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return attemptOnce(url, payload, options, options.timeoutMs);
}

/** One request (GET without a payload). The timeout covers connect, headers and the whole body. */
function attemptOnce(
  url: string,
  payload: string | undefined,
  options: TransportOptions,
  timeoutMs: number,
): Promise<RawResponse> {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const fail = (error: Error): void => settle(() => reject(error));
    const request = (secure ? https : http).request(target, {
      method: payload === undefined ? 'GET' : 'POST',
      agent: options.freshConnection ? false : secure ? AGENTS['https:'] : AGENTS['http:'],
      headers: {
        ...(payload === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        ...options.headers,
      },
    });
    const timer = setTimeout(() => {
      fail(new TransientError('timeout', `no complete response within ${timeoutMs / 1000}s`));
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => fail(classifyNetworkError(error, timeoutMs)));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const tooLarge = (): void => {
        fail(
          new ModelResponseError(
            'response_too_large',
            `response body larger than ${limit} bytes (HTTP ${status})`,
          ),
        );
        request.destroy();
      };
      if (Number(response.headers['content-length']) > limit) return tooLarge();
      // Lenient UTF-8: invalid bytes become U+FFFD rather than failing the reply.
      const decoder = new TextDecoder('utf-8');
      let size = 0;
      let text = '';
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limit) return tooLarge();
        text += decoder.decode(chunk, { stream: true });
      });
      response.on('error', (error) => fail(classifyNetworkError(error, timeoutMs)));
      response.on('close', () => {
        if (!response.complete) fail(new TransientError('reset', 'connection closed mid-response'));
      });
      response.on('end', () =>
        settle(() => {
          const retryAfter = response.headers['retry-after'];
          resolve({ status, ...(retryAfter ? { retryAfter } : {}), text: text + decoder.decode() });
        }),
      );
    });
    request.end(payload);
  });
}

/** A complete response → its JSON, or the typed error its status calls for. */
function interpret(url: string, { status, retryAfter, text }: RawResponse): unknown {
  if (isTransientStatus(status)) {
    throw new TransientError(
      status === 429 ? 'rate_limited' : 'server_error',
      `HTTP ${status} ${snippet(text)}`,
      retryAfterMs(retryAfter ?? null),
    );
  }
  if (status < 200 || status >= 300)
    throw new ModelRequestError(status, rejectionMessage(status, url, text));
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page or a body cut short: transient more often than not.
    throw new MalformedResponseError(`invalid JSON body (${snippet(text)})`);
  }
}
