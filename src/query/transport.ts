import { EndpointUnavailableError } from '../errors.js';
import { ModelRequestError } from './client.js';

export interface TransportOptions {
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Retries after the first attempt for transient failures. */
  retries: number;
  /** Base of the exponential backoff (doubled per retry, with full jitter). */
  backoffMs?: number;
  /** Cap for one wait, including a server's Retry-After. */
  maxWaitMs?: number;
  headers?: Record<string, string>;
}

/** A failure worth retrying: the connection, a timeout, 408/429 or 5xx. */
class TransientError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * POSTs JSON and returns the parsed JSON body, retrying transient failures
 * with exponential backoff and jitter, honouring Retry-After. A permanently
 * failing endpoint ends in EndpointUnavailableError; a 4xx in ModelRequestError
 * carrying the server's own message.
 */
export async function postJson(
  url: string,
  body: unknown,
  options: TransportOptions,
): Promise<{ json: unknown; retries: number }> {
  const backoff = options.backoffMs ?? 500;
  const maxWait = options.maxWaitMs ?? 30_000;
  let last: TransientError | undefined;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) {
      const exp = Math.min(maxWait, backoff * 2 ** (attempt - 1));
      const wait =
        last?.retryAfterMs !== undefined
          ? Math.min(maxWait, last.retryAfterMs)
          : Math.random() * exp;
      await new Promise((r) => setTimeout(r, wait));
    }
    try {
      return { json: await attemptOnce(url, body, options), retries: attempt };
    } catch (error) {
      if (error instanceof TransientError) last = error;
      else throw error;
    }
  }
  throw new EndpointUnavailableError(
    url,
    `${last?.message ?? 'no answer'} (after ${options.retries + 1} attempt(s))`,
  );
}

async function attemptOnce(
  url: string,
  body: unknown,
  options: TransportOptions,
): Promise<unknown> {
  let response: Response;
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw new TransientError(describeFetchError(error, options.timeoutMs));
  }
  let text: string;
  try {
    text = await readBounded(response);
  } catch (error) {
    throw new TransientError(describeFetchError(error, options.timeoutMs));
  }
  if (response.status === 408 || response.status === 429 || response.status >= 500) {
    throw new TransientError(
      `HTTP ${response.status} ${snippet(text)}`,
      retryAfterMs(response.headers.get('retry-after')),
    );
  }
  if (!response.ok) {
    throw new ModelRequestError(
      response.status,
      `HTTP ${response.status} from ${url}: ${snippet(text)}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page or a cut body: transient more often than not.
    throw new TransientError(`invalid JSON body (${snippet(text)})`);
  }
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new Error(`response larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const e = error as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `no response within ${timeoutMs / 1000}s`;
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
