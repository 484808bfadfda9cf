import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Comment {
  id: number;
  body: string;
}
export interface CheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion?: string;
  output?: { title: string; summary: string };
}

/**
 * A loopback HTTP server speaking the GitHub REST endpoints tracegate uses
 * (issue comments, check runs), with in-memory state and a request log.
 * `readOnly` answers every write with 403, as GitHub does for fork PR tokens.
 */
export class FakeGitHub {
  comments = new Map<number, Comment[]>();
  checkRuns: CheckRun[] = [];
  requests: { method: string; path: string; auth?: string }[] = [];
  readOnly = false;
  private server?: Server;
  private nextId = 1000;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '').replace(/\?.*$/, '');
        this.requests.push({ method: req.method ?? '', path, auth: req.headers.authorization });
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        const { status, json } = this.route(req.method ?? '', path, body);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private route(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): { status: number; json: unknown } {
    if (this.readOnly && method !== 'GET') {
      return { status: 403, json: { message: 'Resource not accessible by integration' } };
    }
    let m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
    if (m) {
      const issue = Number(m[1]);
      const list = this.comments.get(issue) ?? [];
      if (method === 'GET') return { status: 200, json: list };
      if (method === 'POST') {
        const comment = { id: this.nextId++, body: String(body.body) };
        this.comments.set(issue, [...list, comment]);
        return { status: 201, json: comment };
      }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path);
    if (m && method === 'PATCH') {
      const id = Number(m[1]);
      for (const list of this.comments.values()) {
        const comment = list.find((c) => c.id === id);
        if (comment) {
          comment.body = String(body.body);
          return { status: 200, json: comment };
        }
      }
      return { status: 404, json: { message: 'Not Found' } };
    }
    if (path.match(/^\/repos\/[^/]+\/[^/]+\/check-runs$/) && method === 'POST') {
      const run: CheckRun = {
        id: this.nextId++,
        name: String(body.name),
        head_sha: String(body.head_sha),
        status: String(body.status ?? 'queued'),
      };
      this.checkRuns.push(run);
      return { status: 201, json: run };
    }
    m = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path);
    if (m && method === 'PATCH') {
      const run = this.checkRuns.find((r) => r.id === Number(m![1]));
      if (!run) return { status: 404, json: { message: 'Not Found' } };
      Object.assign(run, body);
      return { status: 200, json: run };
    }
    return { status: 404, json: { message: `no route ${method} ${path}` } };
  }
}
