import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeRepo } from './git-objects.js';

export interface Comment {
  id: number;
  body: string;
  /** Who wrote it: the token's own user for comments made through this server. */
  user: { login: string; type: string };
}

/** The login a GITHUB_TOKEN writes as (GET /user answers 403 for such a token, as GitHub does). */
export const ACTIONS_BOT = 'github-actions[bot]';
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
 * (issue comments, check runs; the git-data API, compare and commits/{sha}
 * of `repo`, an in-memory repository), with in-memory state and a request
 * log. `readOnly` answers every write with 403, as GitHub does for fork PR
 * tokens; `repo.failRefWrites(n)` makes the next n ref writes lose a race.
 */
export class FakeGitHub {
  comments = new Map<number, Comment[]>();
  checkRuns: CheckRun[] = [];
  requests: { method: string; path: string; query: string; auth?: string }[] = [];
  readOnly = false;
  readonly repo = new FakeRepo();
  private server?: Server;
  private nextId = 1000;
  private held?: { count: number; waiting: (() => void)[] };

  /**
   * Holds the next `count` ref writes until all of them have arrived, then
   * answers them in arrival order: writers that read the same head race for
   * real (the first lands, the others are not a fast forward).
   */
  holdRefWrites(count: number): void {
    this.held = { count, waiting: [] };
  }

  private hold(method: string, path: string, answer: () => void): boolean {
    const refWrite =
      (method === 'PATCH' && /\/git\/refs\//.test(path)) ||
      (method === 'POST' && /\/git\/refs$/.test(path));
    if (!this.held || !refWrite) return false;
    const held = this.held;
    held.waiting.push(answer);
    if (held.waiting.length >= held.count) {
      this.held = undefined;
      held.waiting.forEach((release) => release());
    }
    return true;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const [path = '', query = ''] = (req.url ?? '').split('?', 2);
        this.requests.push({
          method: req.method ?? '',
          path,
          query,
          auth: req.headers.authorization,
        });
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        const answer = () => {
          const { status, json } = this.route(
            req.method ?? '',
            path,
            new URLSearchParams(query),
            body,
          );
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (!this.hold(req.method ?? '', path, answer)) answer();
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
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): { status: number; json: unknown } {
    if (this.readOnly && method !== 'GET') {
      return { status: 403, json: { message: 'Resource not accessible by integration' } };
    }
    const git = this.repo.route(method, path, query, body);
    if (git) return git;
    if (path === '/user' && method === 'GET')
      return { status: 403, json: { message: 'Resource not accessible by integration' } };
    let m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
    if (m) {
      const issue = Number(m[1]);
      const list = this.comments.get(issue) ?? [];
      if (method === 'GET') return { status: 200, json: list };
      if (method === 'POST') {
        const comment = {
          id: this.nextId++,
          body: String(body.body),
          user: { login: ACTIONS_BOT, type: 'Bot' },
        };
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
