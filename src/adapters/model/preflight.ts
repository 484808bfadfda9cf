import type { ChatMessage, ToolSpec } from '../../contracts/messages.js';
import type { GenerationSettings } from '../../contracts/model.js';
import { ExitCode } from '../../errors.js';
import { isTransientStatus, redact, serverMessage, TransientError } from './faults.js';
import { describeNoReply, EndpointCheckError, unreachable } from './preflight-errors.js';
import type { Protocol } from './protocol.js';
import { sendOnce, type RawResponse, type TransportOptions } from './transport.js';

/** The preflight's one question: any server answers it within a few tokens. */
export const PREFLIGHT_PROMPT = 'tracegate preflight: reply with the word ok';
/** The preflight request's max tokens: enough for a reply, too few to cost anything. */
export const PREFLIGHT_MAX_TOKENS = 4;
/** The model list answers at once or the server is not there. */
const LIST_TIMEOUT_MS = 10_000;
/** One tiny request may wait behind a busy server's queue, but not for a run's timeout. */
const ASK_TIMEOUT_MS = 30_000;

/** What the preflight needs of a client: what its real queries use. */
export interface PreflightTarget {
  protocol: Protocol;
  /** The API base URL as the options parsed it (no trailing slash, no route). */
  endpoint: string;
  model: string;
  settings: GenerationSettings;
  /** The client's transport (headers with the key, secrets); only its timeout is shortened. */
  transport: TransportOptions;
  /** The tools a run offers (`context: repo`): a second tiny request offers them. */
  tools?: readonly ToolSpec[];
}

/** The model names a list reply holds (`data[].id`: OpenAI, vLLM, Ollama, Anthropic), if any. */
function namesOf(text: string): string[] | undefined {
  try {
    const data = (JSON.parse(text) as { data?: unknown }).data;
    if (!Array.isArray(data)) return undefined;
    return data
      .map((m) => (m as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string');
  } catch {
    return undefined;
  }
}

/**
 * GET the protocol's model list: the names, or why there are none (a server
 * without the route, a proxy). A server that does not answer at all fails
 * the check here, in seconds.
 */
async function listModels(
  target: PreflightTarget,
): Promise<{ names?: string[]; why?: string; url?: string; answered?: boolean }> {
  const path = target.protocol.modelsPath;
  if (!path) return { why: `${target.protocol.name} has no model list` };
  const url = `${target.endpoint}${path}`;
  let reply: RawResponse;
  try {
    reply = await sendChecked(url, undefined, timeout(target, LIST_TIMEOUT_MS));
  } catch (error) {
    if (error instanceof TransientError) throw unreachable(target.endpoint, `GET ${url}`, error);
    return { why: (error as Error).message, url };
  }
  if (reply.status !== 200) return { why: `HTTP ${reply.status}`, url, answered: true };
  const names = namesOf(reply.text);
  return names
    ? { names, url, answered: true }
    : { why: 'a reply with no data[].id', url, answered: true };
}

/**
 * One request of the check, on a connection of its own (a kept-alive socket the
 * server closed while idle would read as a dead server), sent again once if
 * the connection was reset (a refused connection, a DNS failure or a timeout
 * is not retried).
 */
async function sendChecked(
  url: string,
  body: unknown,
  options: TransportOptions,
): Promise<RawResponse> {
  try {
    return await sendOnce(url, body, options);
  } catch (error) {
    if (!(error instanceof TransientError && error.kind === 'reset')) throw error;
    return sendOnce(url, body, options);
  }
}

function timeout(target: PreflightTarget, capMs: number): TransportOptions {
  return {
    ...target.transport,
    timeoutMs: Math.min(target.transport.timeoutMs, capMs),
    freshConnection: true,
  };
}

/**
 * Checks an endpoint before any harvest: its model list where the protocol
 * has one, then one request of PREFLIGHT_MAX_TOKENS tokens through the
 * protocol's URL, headers, body and decoder, one attempt each, with short
 * timeouts. Throws EndpointCheckError saying what is wrong and what to do;
 * logs what it found.
 */
export async function preflight(
  target: PreflightTarget,
  log: (message: string) => void,
): Promise<void> {
  const { protocol, endpoint, model } = target;
  const listed = await listModels(target);
  const url = `${endpoint}${protocol.path}`;
  const messages: ChatMessage[] = [{ role: 'user', content: PREFLIGHT_PROMPT }];
  const settings = { ...target.settings, maxTokens: PREFLIGHT_MAX_TOKENS };
  const started = performance.now();
  let reply: RawResponse;
  try {
    reply = await sendChecked(
      url,
      protocol.buildBody(model, messages, settings, 0),
      timeout(target, ASK_TIMEOUT_MS),
    );
  } catch (error) {
    // A server that answered the list is up: no reply on the route is the route's failure.
    if (error instanceof TransientError && !listed.answered)
      throw unreachable(endpoint, `POST ${url}`, error);
    const why = error instanceof TransientError ? describeNoReply(error) : (error as Error).message;
    throw failedRoute(target, url, listed.names, why);
  }
  const ms = Math.round(performance.now() - started);
  const said = redact(serverMessage(reply.text), target.transport.secrets ?? []);
  const inList = listed.names?.includes(model);
  if (reply.status === 429) {
    log(
      `Model endpoint ${endpoint} is up but rate-limited the check (HTTP 429: ${said}); ` +
        'the run’s requests wait and retry.',
    );
    return;
  }
  if (reply.status >= 200 && reply.status < 300) {
    try {
      protocol.decode(JSON.parse(reply.text));
    } catch (error) {
      const why = error instanceof SyntaxError ? `invalid JSON: ${said}` : (error as Error).message;
      throw notThisProtocol(target, url, why);
    }
    log(
      `Model endpoint ${endpoint}: a ${PREFLIGHT_MAX_TOKENS}-token request to ${model} ` +
        `answered in ${ms} ms` +
        (inList
          ? ` (${listed.url} lists it).`
          : listed.names
            ? `, though ${listed.url} does not list it (it lists ${names(listed.names)}).`
            : ` (no model list: ${listed.why}).`),
    );
    if (target.tools?.length) await checkTools(target, url, log);
    return;
  }
  if (reply.status === 401 || reply.status === 403)
    throw new EndpointCheckError(
      ExitCode.Usage,
      (o) =>
        `Model endpoint ${endpoint} refused the API key (HTTP ${reply.status} from ${url}): ` +
        `${said.replace(/\.$/, '')}. Check ${o('api-key')}.`,
    );
  if (isTransientStatus(reply.status))
    throw failedRoute(target, url, listed.names, `HTTP ${reply.status}: ${said}`);
  // Another 4xx: the model, the route, or the request itself.
  if ((listed.names && !inList) || (!listed.names && mentions(said, model)))
    throw new EndpointCheckError(
      ExitCode.Usage,
      (o) =>
        `Model endpoint ${endpoint} does not serve the model "${model}" ` +
        `(HTTP ${reply.status}: ${said.replace(/\.$/, '')}). ` +
        (listed.names ? `It serves ${names(listed.names)}. ` : '') +
        `Check ${o('model')}.`,
    );
  if (reply.status === 404) throw notFound(target, url, listed, said);
  throw new EndpointCheckError(
    ExitCode.Usage,
    (o) =>
      `Model endpoint ${endpoint} rejected a ${PREFLIGHT_MAX_TOKENS}-token request ` +
      `(HTTP ${reply.status} from ${url}): ${said.replace(/\.$/, '')}. Check ${o('model')}, ` +
      `${o('extra-body')} and the generation options; if the server refuses only this tiny ` +
      `request, ${o('preflight')} false skips the check.`,
  );
}

/**
 * `context: repo`: the same tiny request, offering the tools. A server that refuses it (vLLM
 * without `--enable-auto-tool-choice`, a server with no tool parser) is told apart before any
 * work, with the alternative: a context the prompt carries.
 */
async function checkTools(
  target: PreflightTarget,
  url: string,
  log: (message: string) => void,
): Promise<void> {
  const { protocol, endpoint, model } = target;
  if (!protocol.tools)
    throw new EndpointCheckError(
      ExitCode.Usage,
      (o) =>
        `${o('context')} repo offers the model tools, which ${o('api')} ${protocol.name} cannot ` +
        `carry. Use openai-chat or anthropic, or ${o('context')} slice.`,
    );
  const messages: ChatMessage[] = [{ role: 'user', content: PREFLIGHT_PROMPT }];
  const settings = { ...target.settings, maxTokens: PREFLIGHT_MAX_TOKENS };
  let reply: RawResponse;
  try {
    reply = await sendChecked(
      url,
      protocol.buildBody(model, messages, settings, 0, target.tools),
      timeout(target, ASK_TIMEOUT_MS),
    );
  } catch (error) {
    const why = error instanceof TransientError ? describeNoReply(error) : (error as Error).message;
    throw failedRoute(target, url, undefined, `with tools offered: ${why}`);
  }
  const said = redact(serverMessage(reply.text), target.transport.secrets ?? []);
  if (reply.status >= 200 && reply.status < 300) {
    log(`Model endpoint ${endpoint}: a request offering ${target.tools!.length} tools answered.`);
    return;
  }
  if (reply.status === 429 || isTransientStatus(reply.status)) {
    log(
      `Model endpoint ${endpoint}: the request offering tools got HTTP ${reply.status}; going on.`,
    );
    return;
  }
  throw new EndpointCheckError(
    ExitCode.Usage,
    (o) =>
      `Model endpoint ${endpoint} refused a request that offers tools (HTTP ${reply.status} from ` +
      `${url}: ${said.replace(/\.$/, '')}). ${o('context')} repo needs a server that serves tool ` +
      'calling (vLLM: --enable-auto-tool-choice with a --tool-call-parser; SGLang: ' +
      `--tool-call-parser); or use ${o('context')} slice, which needs no tools.`,
  );
}

/** The server's message is about this model: it says "model" and the name, as a whole word. */
function mentions(said: string, model: string): boolean {
  const name = model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /model/i.test(said) && new RegExp(`(^|[^\\w.:/-])${name}($|[^\\w.:/-])`).test(said);
}

/** Served names, at most 10 of them, and how many more. */
function names(served: string[]): string {
  if (!served.length) return 'no model';
  const shown = served
    .slice(0, 10)
    .map((n) => `"${n}"`)
    .join(', ');
  return served.length > 10 ? `${shown} and ${served.length - 10} more` : shown;
}

/**
 * 404 on the protocol's route: a base without /v1, or a server that speaks another protocol. A
 * configuration mistake (the URL, --api): exit 2, as a wrong model or key; CI does not retry it.
 */
function notFound(
  target: PreflightTarget,
  url: string,
  listed: { names?: string[]; url?: string },
  said: string,
): EndpointCheckError {
  const { endpoint } = target;
  const versioned = /\/v\d+[a-z]*$/.test(new URL(endpoint).pathname);
  if (!versioned && !listed.names)
    return new EndpointCheckError(
      ExitCode.Usage,
      (o) =>
        `Model endpoint ${endpoint} answered HTTP 404 to POST ${url} (${said.replace(/\.$/, '')}): ` +
        `did you mean ${endpoint}/v1? ${o('endpoint')} is the API base URL, which ends in /v1 ` +
        'on most servers.',
    );
  return new EndpointCheckError(
    ExitCode.Usage,
    (o) =>
      `Model endpoint ${endpoint} ` +
      (listed.names ? `lists its models (${listed.url}) but ` : '') +
      `answered HTTP 404 to POST ${url} (${said.replace(/\.$/, '')}): it does not serve the ` +
      `${target.protocol.path} route. Check ${o('api')} (openai-chat posts to /chat/completions, ` +
      `openai-completions to /completions, anthropic to /messages) and ${o('endpoint')}.`,
  );
}

/** The route answered, but failed (5xx, a body over the limit). */
function failedRoute(
  target: PreflightTarget,
  url: string,
  listed: string[] | undefined,
  why: string,
): EndpointCheckError {
  return new EndpointCheckError(
    ExitCode.Infrastructure,
    () =>
      `Model endpoint ${target.endpoint} ` +
      (listed ? 'lists its models but its ' : 'is up but its ') +
      `${target.protocol.path} route failed (POST ${url}: ${why.replace(/\.$/, '')}). ` +
      'The server is running but cannot answer: look at its log (a model still loading, ' +
      'out of memory), then run again.',
  );
}

function notThisProtocol(target: PreflightTarget, url: string, why: string): EndpointCheckError {
  return new EndpointCheckError(
    ExitCode.Usage,
    (o) =>
      `Model endpoint ${target.endpoint} answered POST ${url}, but not with an ` +
      `${target.protocol.name} reply (${why}). Check ${o('api')} and ${o('endpoint')}.`,
  );
}
