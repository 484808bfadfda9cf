import { createModelClient, type ClientConfig } from '../../src/adapters/model/factory.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ModelClient } from '../../src/contracts/model.js';
import { PREFLIGHT_PROMPT } from '../../src/adapters/model/preflight.js';

/** A fault to inject instead of a normal reply. */
export type Fault =
  | { kind: 'status'; status: number; body?: string; retryAfter?: string }
  /** Headers and half a body, then the socket is destroyed. */
  | { kind: 'reset' }
  /** Never answers at all: the client's timeout must fire. */
  | { kind: 'hang' }
  /** Headers and the start of a body, then silence: the body never ends. */
  | { kind: 'stall' }
  /** A proxy's HTML error page. */
  | { kind: 'html'; status?: number }
  /** A 200 whose JSON body is cut short (but the response itself ends cleanly). */
  | { kind: 'truncated-json' }
  /** A 200 with `choices: []`. */
  | { kind: 'empty-choices' }
  /** A 200 body of this many bytes. */
  | { kind: 'huge'; bytes: number }
  /** A 200 with exactly these bytes as its body (e.g. invalid UTF-8). */
  | { kind: 'bytes'; body: Buffer };

/**
 * A reply of the "model": the content, optionally reasoning and a finish reason; or, when the
 * request offered tools, calls of them (with any text beside).
 */
export type Reply =
  | string
  | { content: string; reasoning?: string; finishReason?: string; toolCalls?: undefined }
  | { toolCalls: { name: string; arguments: string }[]; content?: string };

export interface ServerOptions {
  /** Delay before every normal reply (for benchmarks). */
  delayMs?: number;
  /** If set, requests must carry this key (Bearer or x-api-key) or get a 401 echoing it. */
  apiKey?: string;
  /** If set, other model names get a 404 "does not exist", and GET /models lists these. */
  models?: string[];
  /** A server without tool calling: a request that offers tools gets vLLM's 400. */
  rejectTools?: boolean;
}

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * A loopback model server for tests, speaking OpenAI chat (`/chat/completions`),
 * OpenAI completions (`/completions`) and Anthropic messages (`/messages`). It
 * answers with `answer(prompt)` and injects faults from a schedule keyed by
 * request number, so retries and classification are exercised over real HTTP.
 * A run's preflight (GET /models, the PREFLIGHT_PROMPT request) is answered
 * like any request but counted apart, in `preflights`: it takes no fault, no
 * request number and no place in `seen`, so schedules keep meaning the queries.
 */
export class FaultyModelServer {
  requests = 0;
  preflights = 0;
  readonly seen: SeenRequest[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly answer: (prompt: string, request: SeenRequest) => Reply,
    private readonly faultFor: (requestNumber: number) => Fault | undefined = () => undefined,
    private readonly options: ServerOptions = {},
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.respond(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      f();
    }, ms);
    this.timers.add(t);
  }

  private respond(req: IncomingMessage, raw: string, res: ServerResponse): void {
    const path = (req.url ?? '').replace(/\?.*$/, '');
    const preflight = req.method === 'GET' || raw.includes(PREFLIGHT_PROMPT);
    const request: SeenRequest = { path, headers: req.headers, body: raw ? JSON.parse(raw) : {} };
    if (preflight) this.preflights++;
    else {
      const n = ++this.requests;
      this.seen.push(request);
      const fault = this.faultFor(n);
      if (fault) return this.inject(fault, res);
    }
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const { apiKey, models } = this.options;
    if (apiKey) {
      const given =
        req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (given !== apiKey)
        return json(401, {
          error: { message: `Incorrect API key provided: ${given}`, type: 'invalid_request_error' },
        });
    }
    if (req.method === 'GET')
      return path.endsWith('/models') && models
        ? json(200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) })
        : json(404, { error: { message: `no route ${path}` } });
    const model = String(request.body.model);
    if (models && !models.includes(model))
      return json(404, {
        error: { message: `The model \`${model}\` does not exist.`, type: 'NotFoundError' },
      });
    if (this.options.rejectTools && request.body.tools)
      return json(400, {
        error: {
          message:
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
          type: 'BadRequestError',
        },
      });
    // The preflight's question never reaches `answer` (a test's answer may count its calls).
    const ask = (prompt: string) =>
      preflight ? { content: 'ok' } : normalise(this.answer(prompt, request));
    const send = () => {
      if (path.endsWith('/chat/completions') || path.endsWith('/messages')) {
        const messages = request.body.messages as { role: string; content: unknown }[];
        const last = messages.at(-1)?.content;
        const reply = ask(typeof last === 'string' ? last : JSON.stringify(last ?? ''));
        const calls = (reply.toolCalls ?? []).map((c, i) => ({
          id: `call_${this.requests}_${i}`,
          ...c,
        }));
        if (path.endsWith('/messages'))
          return json(200, {
            type: 'message',
            content: [
              ...(reply.reasoning ? [{ type: 'thinking', thinking: reply.reasoning }] : []),
              ...(reply.content ? [{ type: 'text', text: reply.content }] : []),
              ...calls.map((c) => ({
                type: 'tool_use',
                id: c.id,
                name: c.name,
                input: JSON.parse(c.arguments) as unknown,
              })),
            ],
            stop_reason: calls.length
              ? 'tool_use'
              : reply.finishReason === 'length'
                ? 'max_tokens'
                : 'end_turn',
            usage: { input_tokens: 10, output_tokens: 5 },
          });
        return json(200, {
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: reply.content ?? null,
                ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
                ...(calls.length
                  ? {
                      tool_calls: calls.map((c) => ({
                        id: c.id,
                        type: 'function',
                        function: { name: c.name, arguments: c.arguments },
                      })),
                    }
                  : {}),
              },
              finish_reason: calls.length ? 'tool_calls' : (reply.finishReason ?? 'stop'),
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5 },
        });
      }
      if (path.endsWith('/completions')) {
        const reply = ask(String(request.body.prompt));
        return json(200, {
          choices: [
            { index: 0, text: reply.content ?? '', finish_reason: reply.finishReason ?? 'stop' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5 },
        });
      }
      json(404, { error: { message: `no route ${path}` } });
    };
    if (this.options.delayMs) this.later(this.options.delayMs, send);
    else send();
  }

  private inject(fault: Fault, res: ServerResponse): void {
    switch (fault.kind) {
      case 'hang':
        return;
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"choices": [');
        this.later(5, () => res.socket?.destroy());
        return;
      case 'stall':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"choices": [');
        return;
      case 'html':
        res.writeHead(fault.status ?? 502, { 'content-type': 'text/html' });
        res.end('<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
        return;
      case 'truncated-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"choices": [{"index": 0, "message": {"role": "assistant", "content": "{\\"val');
        return;
      case 'empty-choices':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 0 } }));
        return;
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let left = fault.bytes;
        const pump = (): void => {
          while (left > 0) {
            const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
            left -= part.length;
            if (!res.write(part)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        res.on('error', () => {});
        pump();
        return;
      }
      case 'bytes':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(fault.body);
        return;
      case 'status':
        res.writeHead(fault.status, {
          'content-type': 'application/json',
          ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
        });
        res.end(fault.body ?? JSON.stringify({ error: { message: `injected ${fault.status}` } }));
        return;
    }
  }
}

function normalise(reply: Reply): {
  content?: string;
  reasoning?: string;
  finishReason?: string;
  toolCalls?: { name: string; arguments: string }[];
} {
  return typeof reply === 'string' ? { content: reply } : reply;
}

/** An openai-chat client for tests: settings fixed, the transport policy given. */
export function testClient(
  endpoint: string,
  policy: Pick<ClientConfig, 'timeoutMs' | 'retries'> & Partial<ClientConfig>,
): ModelClient {
  return createModelClient({
    api: 'openai-chat',
    endpoint,
    model: 'm',
    settings: { temperature: 0, maxTokens: 64 },
    ...policy,
  });
}
