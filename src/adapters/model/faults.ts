/**
 * Classification of what can go wrong on the wire. Pure functions: they take
 * what fetch threw or what the server sent and say what it was, so retry
 * policy and messages are decided in one place and tested without a network.
 */

/** Kinds of transient failure, as they appear in messages and accounting. */
export type TransientKind =
  'refused' | 'reset' | 'dns' | 'timeout' | 'rate_limited' | 'server_error' | 'bad_body';

/** A failure worth retrying: the connection, a timeout, 408/429, 5xx or a garbled body. */
export class TransientError extends Error {
  constructor(
    readonly kind: TransientKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TransientError';
  }
}

/**
 * A 200 whose body is not a usable reply (HTML from a proxy, no choices):
 * thrown by a protocol's decoder, retried like any transient failure.
 */
export class MalformedResponseError extends TransientError {
  constructor(message: string) {
    super('bad_body', message);
    this.name = 'MalformedResponseError';
  }
}

const RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Classifies an error thrown by fetch or while reading a body. */
export function classifyNetworkError(error: unknown, timeoutMs: number): TransientError {
  const e = error as {
    name?: string;
    message?: string;
    code?: string;
    cause?: { code?: string; message?: string; name?: string };
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.cause?.name === 'TimeoutError')
    return new TransientError('timeout', `no complete response within ${timeoutMs / 1000}s`);
  const code = e.cause?.code ?? e.code;
  if (code === 'ECONNREFUSED')
    return new TransientError('refused', 'ECONNREFUSED (nothing listening)');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new TransientError('dns', `${code} (host name does not resolve)`);
  if (code && RESET_CODES.has(code))
    return new TransientError('reset', `${code} (connection reset)`);
  if (/terminated|other side closed|socket hang up/i.test(`${e.message} ${e.cause?.message}`))
    return new TransientError('reset', `connection closed mid-response (${e.message})`);
  return new TransientError('reset', code ?? e.cause?.message ?? e.message ?? String(error));
}

/** Statuses retried: request timeout, rate limit and every 5xx (529 is Anthropic's overload). */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined if absent or garbled. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/**
 * The server's own error message, verbatim when it sent one in a known shape
 * (OpenAI/vLLM `error.message`, Ollama/TGI `error`, Anthropic `error.message`,
 * FastAPI `detail`), else a flattened snippet of the body.
 */
export function serverMessage(body: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const error = json.error as Record<string, unknown> | string | undefined;
    if (typeof error === 'string') return error;
    if (error && typeof error.message === 'string') return error.message;
    if (typeof json.message === 'string') return json.message;
    if (typeof json.detail === 'string') return json.detail;
  } catch {
    // not JSON: fall through to the snippet
  }
  return snippet(body);
}

/** A body flattened to one line and cut at 300 characters. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return '(empty body)';
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** Replaces every occurrence of each secret (e.g. the API key a server echoes back) with ***. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}

/** The message for a 4xx that retrying cannot fix; 401/403 say it is the key. */
export function rejectionMessage(status: number, url: string, body: string): string {
  const message = serverMessage(body);
  if (status === 401 || status === 403)
    return `the server refused the API key (HTTP ${status} from ${url}): ${message}`;
  return `HTTP ${status} from ${url}: ${message}`;
}
