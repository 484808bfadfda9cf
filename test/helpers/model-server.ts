import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; body?: string; retryAfter?: string }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'html' };

/**
 * A loopback OpenAI-compatible server for tests: answers with `answer(prompt)`
 * and injects faults from a schedule (by request number), so retries and
 * classification are exercised over real HTTP.
 */
export class FaultyModelServer {
  requests = 0;
  private server?: Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(
    private readonly answer: (prompt: string) => string,
    private readonly faultFor: (requestNumber: number) => Fault | undefined = () => undefined,
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.respond(Buffer.concat(chunks).toString('utf8'), res));
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private respond(raw: string, res: ServerResponse): void {
    const n = ++this.requests;
    const fault = this.faultFor(n);
    if (fault?.kind === 'hang') return; // never answers: the client's timeout must fire
    if (fault?.kind === 'reset') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices": [');
      res.socket?.destroy();
      return;
    }
    if (fault?.kind === 'html') {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, {
        'content-type': 'application/json',
        ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
      });
      res.end(fault.body ?? JSON.stringify({ error: { message: `injected ${fault.status}` } }));
      return;
    }
    const request = JSON.parse(raw) as { messages: { role: string; content: string }[] };
    const prompt = request.messages.at(-1)?.content ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: this.answer(prompt) },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      }),
    );
  }
}
