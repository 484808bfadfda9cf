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
  /** Every annotation sent, over all updates (GitHub appends them). */
  annotations: Record<string, unknown>[];
  /** Annotations per request (GitHub takes at most 50). */
  annotationBatches: number[];
}

/** A pull request of the fake repository. */
export interface FakePull {
  number: number;
  head: string;
  base: string;
  labels: string[];
  /** The commit its merge made on the base branch (commits/{sha}/pulls finds the PR by it). */
  mergeCommit?: string;
}

/** An artifact uploaded through the results service, as a workflow run holds it. */
export interface FakeArtifact {
  id: number;
  name: string;
  /** The run whose job uploaded it (from the runtime token's backend ids). */
  runId: number;
  zip: Buffer;
  finalized: boolean;
}

/**
 * A runtime token as the runner gives a job: a JWT whose scope names the run's results backend
 * ids, and whose `ac` claim lists the cache scopes it may use, as GitHub's does: the run's own
 * ref (read and write) first, then the refs it may restore from (read), e.g. a PR's base branch.
 */
export function runtimeToken(
  runId: number,
  ref = 'refs/heads/main',
  readable: string[] = [],
): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const ac = JSON.stringify([
    { Scope: ref, Permission: 3 },
    ...readable.map((scope) => ({ Scope: scope, Permission: 1 })),
  ]);
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ scp: `Actions.GenericRead Actions.Results:run-${runId}:job-${runId}`, ac })}.sig`;
}

/** An entry of the Actions cache service (v2), as a repository's cache holds it. */
export interface FakeCacheEntry {
  id: number;
  key: string;
  version: string;
  /** The ref whose run saved it. */
  scope: string;
  blob: Buffer;
  finalized: boolean;
  /** Creation order: a restore-key prefix matches the newest entry. */
  created: number;
}

/** What the cache service does wrong, for the fault tests. */
export interface CacheFaults {
  /** Every CacheService call answers this status (429: rate limited, 5xx: down). */
  status?: number;
  /** CreateCacheEntry answers ok: false (a reservation refused: another job holds the key). */
  refuseCreate?: boolean;
  /** Downloads send only the first half of the archive (with a matching length). */
  truncate?: boolean;
}

interface Answer {
  status: number;
  json?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
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
  /** Only comment writes answer 403 (a token that may write checks but not comments). */
  commentsReadOnly = false;
  readonly repo = new FakeRepo();
  readonly pulls = new Map<number, FakePull>();
  readonly artifacts: FakeArtifact[] = [];
  /** The repository's Actions cache (service v2). */
  readonly cache: FakeCacheEntry[] = [];
  cacheFaults: CacheFaults = {};
  private readonly blocks = new Map<string, Buffer>();
  private base = '';
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
        const raw = Buffer.concat(chunks);
        const answer = () => {
          const reply = path.startsWith('/blob/')
            ? this.blob(req.method ?? '', path, new URLSearchParams(query), raw)
            : path.startsWith('/twirp/github.actions.results.api.v1.CacheService/')
              ? this.cacheService(path.split('/').pop()!, req.headers.authorization, raw)
              : this.route(
                  req.method ?? '',
                  path,
                  new URLSearchParams(query),
                  raw.length ? JSON.parse(raw.toString('utf8')) : {},
                );
          res.writeHead(reply.status, {
            'content-type': reply.raw ? 'application/octet-stream' : 'application/json',
            ...reply.headers,
          });
          res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
        };
        if (!this.hold(req.method ?? '', path, answer)) answer();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  /**
   * Azure block-blob uploads (stage blocks, commit the list, or one PUT) and downloads, at a
   * signed URL: `/blob/<id>/…` of an artifact or of a cache entry.
   */
  private blob(method: string, path: string, query: URLSearchParams, body: Buffer): Answer {
    const id = Number(/^\/blob\/(\d+)/.exec(path)?.[1]);
    const artifact = this.artifacts.find((a) => a.id === id);
    const entry = this.cache.find((e) => e.id === id);
    const holder = artifact
      ? {
          bytes: () => artifact.zip,
          set: (b: Buffer) => (artifact.zip = b),
          done: artifact.finalized,
        }
      : entry
        ? { bytes: () => entry.blob, set: (b: Buffer) => (entry.blob = b), done: entry.finalized }
        : undefined;
    if (!holder) return { status: 404, json: { message: 'no such blob' } };
    const etag = { etag: '"0x1"', 'last-modified': new Date().toUTCString() };
    if (method === 'GET') {
      if (!holder.done) return { status: 404, json: { message: 'not finalized' } };
      const bytes = holder.bytes();
      const sent =
        entry && this.cacheFaults.truncate ? bytes.subarray(0, bytes.length >> 1) : bytes;
      return { status: 200, raw: sent, headers: { 'content-type': 'application/octet-stream' } };
    }
    if (method !== 'PUT') return { status: 405, json: {} };
    const comp = query.get('comp');
    if (comp === 'block') {
      this.blocks.set(`${id}:${query.get('blockid')}`, body);
      return { status: 201, raw: Buffer.alloc(0), headers: etag };
    }
    if (comp === 'blocklist') {
      const ids = [
        ...body.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)</g),
      ];
      holder.set(
        Buffer.concat(ids.map((m) => this.blocks.get(`${id}:${m[1]}`) ?? Buffer.alloc(0))),
      );
      return { status: 201, raw: Buffer.alloc(0), headers: etag };
    }
    holder.set(body);
    return { status: 201, raw: Buffer.alloc(0), headers: etag };
  }

  /**
   * The Actions cache service, v2 (Twirp, JSON with proto field names): reserve an entry and get
   * a signed upload URL, finalize it, and look one up by key then by restore-key prefix (newest
   * first) in the scopes the runtime token may read, its own ref first: as GitHub scopes caches,
   * a PR restores from its base branch's entries but never writes them.
   */
  private cacheService(method: string, auth: string | undefined, raw: Buffer): Answer {
    const fault = this.cacheFaults.status;
    if (fault) return { status: fault, json: { code: 'unavailable', msg: `status ${fault}` } };
    const body = (raw.length ? JSON.parse(raw.toString('utf8')) : {}) as Record<string, unknown>;
    const scopes = cacheScopes(auth);
    if (!scopes.length)
      return { status: 401, json: { code: 'unauthenticated', msg: 'no cache scopes' } };
    const key = String(body.key ?? '');
    const version = String(body.version ?? '');
    const own = scopes[0]!;
    if (method === 'CreateCacheEntry') {
      if (!own.write)
        return { status: 403, json: { code: 'permission_denied', msg: 'read-only scope' } };
      const taken = this.cache.some(
        (e) => e.scope === own.scope && e.key === key && e.version === version,
      );
      if (taken || this.cacheFaults.refuseCreate)
        return {
          status: 200,
          json: { ok: false, message: `cache entry ${key} is already reserved` },
        };
      const entry: FakeCacheEntry = {
        id: this.nextId++,
        key,
        version,
        scope: own.scope,
        blob: Buffer.alloc(0),
        finalized: false,
        created: this.nextId,
      };
      this.cache.push(entry);
      return {
        status: 200,
        json: { ok: true, signed_upload_url: `${this.base}/blob/${entry.id}/cache.tzst?sig=w` },
      };
    }
    if (method === 'FinalizeCacheEntryUpload') {
      const entry = this.cache.find(
        (e) => e.scope === own.scope && e.key === key && e.version === version && !e.finalized,
      );
      if (!entry) return { status: 404, json: { code: 'not_found', msg: 'no such entry' } };
      if (String(entry.blob.length) !== String(body.size_bytes))
        return { status: 200, json: { ok: false, message: 'size does not match the upload' } };
      entry.finalized = true;
      return { status: 200, json: { ok: true, entry_id: String(entry.id) } };
    }
    if (method === 'GetCacheEntryDownloadURL') {
      const restoreKeys = Array.isArray(body.restore_keys) ? body.restore_keys.map(String) : [];
      const ready = this.cache.filter((e) => e.finalized && e.version === version);
      const newest = (list: FakeCacheEntry[]) => list.sort((a, b) => b.created - a.created)[0];
      const found =
        scopes.map((s) => ready.find((e) => e.scope === s.scope && e.key === key)).find(Boolean) ??
        restoreKeys
          .flatMap((prefix) =>
            scopes.map((s) =>
              newest(ready.filter((e) => e.scope === s.scope && e.key.startsWith(prefix))),
            ),
          )
          .find(Boolean);
      if (!found)
        return { status: 200, json: { ok: false, signed_download_url: '', matched_key: '' } };
      return {
        status: 200,
        json: {
          ok: true,
          signed_download_url: `${this.base}/blob/${found.id}/cache.tzst?sig=r`,
          matched_key: found.key,
        },
      };
    }
    return { status: 404, json: { code: 'bad_route', msg: `no method ${method}` } };
  }

  /** The runner's results service (Twirp, JSON): create and finalize an artifact. */
  private results(method: string, body: Record<string, unknown>): Answer {
    // protobuf JSON: the toolkit writes proto field names (snake_case).
    const backendId = body.workflow_run_backend_id ?? body.workflowRunBackendId;
    const runId = Number(/^run-(\d+)$/.exec(String(backendId))?.[1]);
    if (method === 'CreateArtifact') {
      const artifact: FakeArtifact = {
        id: this.nextId++,
        name: String(body.name),
        runId,
        zip: Buffer.alloc(0),
        finalized: false,
      };
      this.artifacts.push(artifact);
      return {
        status: 200,
        json: { ok: true, signedUploadUrl: `${this.base}/blob/${artifact.id}/artifact.zip?sig=x` },
      };
    }
    if (method === 'FinalizeArtifact') {
      const artifact = this.artifacts.find((a) => a.runId === runId && a.name === body.name);
      if (!artifact) return { status: 404, json: { msg: 'no such artifact' } };
      artifact.finalized = true;
      return { status: 200, json: { ok: true, artifactId: String(artifact.id) } };
    }
    return { status: 404, json: { msg: `no method ${method}` } };
  }

  /** Set: every read of the commit graph (a commit, a compare) answers this status. */
  failCommitReads?: number;

  private route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Answer {
    if (
      this.failCommitReads &&
      method === 'GET' &&
      /^\/repos\/[^/]+\/[^/]+\/(commits\/[0-9a-f]+|compare\/[^/]+)$/.test(path)
    )
      return { status: this.failCommitReads, json: { message: 'Server Error' } };
    let m = /^\/twirp\/github\.actions\.results\.api\.v1\.ArtifactService\/(\w+)$/.exec(path);
    if (m) return this.results(m[1]!, body);
    m = /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/artifacts$/.exec(path);
    if (m && method === 'GET') {
      const runId = Number(m[1]);
      const name = query.get('name');
      const list = this.artifacts.filter(
        (a) => a.finalized && a.runId === runId && (!name || a.name === name),
      );
      return {
        status: 200,
        json: {
          total_count: list.length,
          artifacts: list.map((a) => ({
            id: a.id,
            name: a.name,
            size_in_bytes: a.zip.length,
            created_at: new Date().toISOString(),
          })),
        },
      };
    }
    m = /^\/repos\/[^/]+\/[^/]+\/actions\/artifacts\/(\d+)\/zip$/.exec(path);
    if (m && method === 'GET') {
      const artifact = this.artifacts.find((a) => a.id === Number(m![1]) && a.finalized);
      if (!artifact) return { status: 404, json: { message: 'Not Found' } };
      return {
        status: 302,
        json: {},
        headers: { location: `${this.base}/blob/${artifact.id}/artifact.zip?sig=r` },
      };
    }
    m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(path);
    if (m && method === 'GET') {
      const pull = this.pulls.get(Number(m[1]));
      return pull
        ? { status: 200, json: this.pullJson(pull) }
        : { status: 404, json: { message: 'Not Found' } };
    }
    m = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]+)\/pulls$/.exec(path);
    if (m && method === 'GET') {
      const sha = m[1];
      return {
        status: 200,
        json: [...this.pulls.values()]
          .filter((p) => p.mergeCommit === sha || p.head === sha)
          .map((p) => this.pullJson(p)),
      };
    }
    if (this.readOnly && method !== 'GET') {
      return { status: 403, json: { message: 'Resource not accessible by integration' } };
    }
    if (this.commentsReadOnly && method !== 'GET' && /\/issues\//.test(path)) {
      return { status: 403, json: { message: 'Resource not accessible by integration' } };
    }
    const git = this.repo.route(method, path, query, body);
    if (git) return git;
    if (path === '/user' && method === 'GET')
      return { status: 403, json: { message: 'Resource not accessible by integration' } };
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
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
        annotations: [],
        annotationBatches: [],
      };
      this.checkRuns.push(run);
      return { status: 201, json: run };
    }
    m = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path);
    if (m && method === 'PATCH') {
      const run = this.checkRuns.find((r) => r.id === Number(m![1]));
      if (!run) return { status: 404, json: { message: 'Not Found' } };
      const { output, ...rest } = body as { output?: { annotations?: Record<string, unknown>[] } };
      Object.assign(run, rest);
      if (output) {
        const { annotations = [], ...text } = output;
        if (annotations.length > 50)
          return { status: 422, json: { message: 'Only 50 annotations are allowed per request' } };
        run.output = text as CheckRun['output'];
        run.annotations.push(...annotations);
        if (annotations.length) run.annotationBatches.push(annotations.length);
      }
      return { status: 200, json: run };
    }
    return { status: 404, json: { message: `no route ${method} ${path}` } };
  }

  private pullJson(p: FakePull): unknown {
    return {
      number: p.number,
      head: { sha: p.head, ref: `feature-${p.number}` },
      base: { sha: this.repo.branches.get(p.base) ?? '', ref: p.base },
      labels: p.labels.map((name) => ({ name })),
      merged_at: p.mergeCommit ? new Date().toISOString() : null,
    };
  }
}

/** The cache scopes a bearer runtime token grants: its `ac` claim, the run's own ref first. */
function cacheScopes(auth: string | undefined): { scope: string; write: boolean }[] {
  const token = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
  try {
    const claims = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8')) as {
      ac?: string;
    };
    const ac = JSON.parse(claims.ac ?? '[]') as { Scope: string; Permission: number }[];
    return ac.map((a) => ({ scope: a.Scope, write: (a.Permission & 2) !== 0 }));
  } catch {
    return [];
  }
}
