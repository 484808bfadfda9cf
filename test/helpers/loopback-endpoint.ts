import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A scriptable loopback model endpoint (real HTTP, routes by function) and a
 * fake harvest backend whose questions it can answer: for runs through a door
 * with no Docker engine, when what is tried is the endpoint.
 */

export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body?: { model?: string; messages?: { content: string }[]; max_tokens?: number };
}
/** A reply, or no reply: `hang` keeps the request open, `reset` drops the connection. */
export type Reply = { status: number; body: unknown } | 'hang' | 'reset';

/** A loopback server answering with `route` (on `port`, default any free one); it records every request. */
export async function endpoint(route: (r: Seen) => Reply, port = 0) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const r: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        ...(raw ? { body: JSON.parse(raw) as Seen['body'] } : {}),
      };
      seen.push(r);
      const reply = route(r);
      if (reply === 'hang') return;
      if (reply === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    root,
    seen,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export const chat = (content: string) => ({
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2 },
});

/** Right on every question of the fake harvest ("What is n for ID?"). */
export const answer = (body: Seen['body']) => {
  const text = body?.messages?.map((m) => m.content).join('\n') ?? '';
  const id = /What is n for ([\w.-]+)\?/.exec(text)?.[1];
  return chat(id ? `{"n": ${id.length}}` : 'ok');
};

/** A vLLM-like server under /v1: lists `models`, answers them, 404s the rest as FastAPI does. */
export const vllm =
  (models: string[], chatStatus?: number) =>
  (r: Seen): Reply => {
    if (r.method === 'GET' && r.path === '/v1/models')
      return { status: 200, body: { object: 'list', data: models.map((id) => ({ id })) } };
    if (r.method === 'POST' && r.path === '/v1/chat/completions') {
      if (chatStatus) return { status: chatStatus, body: { detail: 'Internal Server Error' } };
      if (!models.includes(r.body?.model ?? ''))
        return {
          status: 404,
          body: { error: { message: `The model \`${r.body?.model}\` does not exist.` } },
        };
      return { status: 200, body: answer(r.body) };
    }
    return { status: 404, body: { detail: 'Not Found' } };
  };
