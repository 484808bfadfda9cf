import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';

/**
 * A model server as a serving stack starts it, on loopback, coming up late: real HTTP, the stack's
 * own behaviour while it loads, then the demo model's answers (its heuristic, under the name the
 * workflow asks for). For the example workflows' gate steps (examples/*.yml).
 *
 * - `vllm`: nothing listens until the weights are loaded (connection refused), then /health 200;
 * - `llama.cpp`: listens at once, /health and every route answer 503 "Loading model", then 200;
 * - `remote`: a hosted service scaled to zero: 503 while it starts, no /health route (404), and
 *   every request must carry `Authorization: Bearer KEY` (401 otherwise).
 */
export type Stack = 'vllm' | 'llama.cpp' | 'remote';

export interface LateStackOptions {
  stack: Stack;
  port: number;
  /** The model name the workflow asks for. */
  model: string;
  /** When it answers: ms after start. */
  upAfterMs: number;
  /** `remote`: the key every request must carry. */
  key?: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  status: number;
}

export interface LateStack {
  seen: SeenRequest[];
  /** When it began to answer (ms since epoch), once up. */
  upAt: () => number | undefined;
  close(): Promise<void>;
}

export async function lateStack(options: LateStackOptions): Promise<LateStack> {
  const upstream = await startHeuristicServer();
  const started = Date.now();
  let upAt: number | undefined;
  const up = () => Date.now() - started >= options.upAfterMs;
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void answer(req, res, options, up, upstream).then((status) => {
      if (status === 200 && upAt === undefined) upAt = Date.now();
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        status,
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = () => new Promise<void>((r) => server.listen(options.port, '127.0.0.1', r));
  // vLLM's server opens its port only once the weights are loaded.
  let timer: NodeJS.Timeout | undefined;
  if (options.stack === 'vllm') timer = setTimeout(() => void listen(), options.upAfterMs);
  else await listen();
  return {
    seen,
    upAt: () => upAt,
    close: async () => {
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      await closeServer(server);
      await upstream.close();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((r) => (server.listening ? server.close(() => r()) : r()));
}

/** Answers one request as the stack would; returns the status sent. */
async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  options: LateStackOptions,
  up: () => boolean,
  upstream: RunningServer,
): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const send = (status: number, body: unknown): number => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return status;
  };
  const path = (req.url ?? '').replace(/\?.*$/, '');
  if (options.stack === 'remote' && req.headers.authorization !== `Bearer ${options.key}`)
    return send(401, { error: { message: 'Invalid API key', type: 'authentication_error' } });
  if (path === '/health') {
    if (options.stack === 'remote') return send(404, { error: { message: 'Not Found' } });
    return up()
      ? send(200, { status: 'ok' })
      : send(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } });
  }
  if (!up())
    return options.stack === 'remote'
      ? send(503, { error: { message: 'The service is starting (scaled to zero).' } })
      : send(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } });
  if (req.method === 'GET' && path === '/v1/models')
    return send(200, { object: 'list', data: [{ id: options.model, object: 'model' }] });
  if (req.method !== 'POST' || path !== '/v1/chat/completions')
    return send(404, { error: { message: `no route ${req.method} ${path}` } });
  // The demo model's answer, under the workflow's model name.
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: string };
  if (body.model !== options.model)
    return send(404, { error: { message: `The model \`${body.model}\` does not exist.` } });
  const reply = await fetch(`${upstream.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, model: HEURISTIC_MODEL }),
  });
  return send(reply.status, { ...((await reply.json()) as object), model: options.model });
}
