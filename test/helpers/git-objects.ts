import { createHash } from 'node:crypto';

/** What a route answers. */
export interface Reply {
  status: number;
  json: unknown;
}

interface TreeEntry {
  name: string;
  mode: string;
  type: 'blob' | 'tree';
  sha: string;
}

type GitObject =
  | { type: 'blob'; content: Buffer }
  | { type: 'tree'; entries: TreeEntry[] }
  | { type: 'commit'; tree: string; parents: string[]; message: string };

const notFound = (what: string): Reply => ({
  status: 404,
  json: { message: `Not Found: ${what}` },
});
const invalid = (message: string): Reply => ({ status: 422, json: { message } });

function hashObject(type: string, body: Buffer): string {
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]))
    .digest('hex');
}

/** Git's tree order: names compared as bytes, a tree's name as if it ended in `/`. */
function treeOrder(a: TreeEntry, b: TreeEntry): number {
  const key = (e: TreeEntry) => (e.type === 'tree' ? `${e.name}/` : e.name);
  return Buffer.compare(Buffer.from(key(a)), Buffer.from(key(b)));
}

/**
 * An in-memory git repository as GitHub's REST API shows it: the git-data
 * endpoints (refs, commits, trees, blobs) with real object hashes, plus the
 * commit graph of the user's own commits (compare, commits/{sha}). Writes a
 * real server would refuse are refused: a non-fast-forward ref update, an
 * existing ref created again, a deletion of a path that is not there, a
 * tree or commit naming an object that does not exist.
 */
export class FakeRepo {
  readonly objects = new Map<string, GitObject>();
  readonly refs = new Map<string, string>();
  /** Parents of the user's commits (not the data branch's): what compare and commits/{sha} see. */
  readonly graph = new Map<string, string[]>();
  /** Branches of the user's repository (compare accepts `main...sha`). */
  readonly branches = new Map<string, string>();
  private refFailures: number[] = [];
  private clock = 0;

  /** The next `count` ref updates or creations answer `status` (a writer that lost a race). */
  failRefWrites(count: number, status: 409 | 422 = 409): void {
    this.refFailures.push(...Array<number>(count).fill(status));
  }

  /** Adds commits of the user's repository: `{ sha, parents }`, parents first-parent first. */
  addCommits(commits: { sha: string; parents: string[] }[]): void {
    for (const c of commits) this.graph.set(c.sha, c.parents);
  }

  private put(object: GitObject): string {
    let body: Buffer;
    if (object.type === 'blob') body = object.content;
    else if (object.type === 'tree')
      body = Buffer.concat(
        object.entries.map((e) =>
          Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.sha, 'hex')]),
        ),
      );
    else
      body = Buffer.from(
        `tree ${object.tree}\n${object.parents.map((p) => `parent ${p}\n`).join('')}` +
          `author tracegate-test <t@example.com> ${++this.clock} +0000\n\n${object.message}`,
      );
    const sha = hashObject(object.type, body);
    this.objects.set(sha, object);
    return sha;
  }

  blob(text: string | Buffer): string {
    return this.put({ type: 'blob', content: Buffer.from(text) });
  }

  /** A new tree: `base` with each path set to a blob sha, or deleted (null). Throws a Reply on a bad change. */
  tree(
    base: string | undefined,
    changes: { path: string; sha: string | null }[],
  ): string | undefined {
    const baseEntries = base ? this.treeEntries(base) : [];
    const byName = new Map(baseEntries.map((e) => [e.name, e]));
    const deeper = new Map<string, { path: string; sha: string | null }[]>();
    for (const change of changes) {
      const [head, ...rest] = change.path.split('/');
      if (!head) throw invalid(`tree.path ${change.path} is not valid`);
      if (rest.length) {
        deeper.set(head, [...(deeper.get(head) ?? []), { path: rest.join('/'), sha: change.sha }]);
      } else if (change.sha === null) {
        if (!byName.has(head))
          throw invalid(`GitRPC::BadObjectState: cannot delete missing ${head}`);
        byName.delete(head);
      } else {
        if (this.objects.get(change.sha)?.type !== 'blob')
          throw invalid(`tree.sha ${change.sha} is not a valid blob`);
        byName.set(head, { name: head, mode: '100644', type: 'blob', sha: change.sha });
      }
    }
    for (const [name, sub] of deeper) {
      const existing = byName.get(name);
      if (existing && existing.type !== 'tree') throw invalid(`${name} is a file, not a directory`);
      const sha = this.tree(existing?.sha, sub);
      if (sha) byName.set(name, { name, mode: '040000', type: 'tree', sha });
      else byName.delete(name);
    }
    const entries = [...byName.values()].sort(treeOrder);
    return entries.length || !base ? this.put({ type: 'tree', entries }) : undefined;
  }

  commit(tree: string, parents: string[], message: string): string {
    return this.put({ type: 'commit', tree, parents, message });
  }

  private blobSize(sha: string): number {
    const blob = this.objects.get(sha);
    return blob?.type === 'blob' ? blob.content.length : 0;
  }

  private treeEntries(sha: string): TreeEntry[] {
    const object = this.objects.get(sha);
    if (object?.type !== 'tree') throw invalid(`base_tree ${sha} is not a tree`);
    return object.entries;
  }

  /** The text of `path` on `branch` (tests read what was written). */
  readFile(branch: string, path: string): string | undefined {
    const head = this.refs.get(`heads/${branch}`);
    if (!head) return undefined;
    let tree = (this.objects.get(head) as { tree: string }).tree;
    const segments = path.split('/');
    for (const [i, segment] of segments.entries()) {
      const entry = this.treeEntries(tree).find((e) => e.name === segment);
      if (!entry) return undefined;
      if (i === segments.length - 1)
        return (this.objects.get(entry.sha) as { content: Buffer }).content.toString('utf8');
      tree = entry.sha;
    }
    return undefined;
  }

  /** Every file path on `branch`. */
  files(branch: string): string[] {
    const head = this.refs.get(`heads/${branch}`);
    if (!head) return [];
    const walk = (sha: string, prefix: string): string[] =>
      this.treeEntries(sha).flatMap((e) =>
        e.type === 'tree' ? walk(e.sha, `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
      );
    return walk((this.objects.get(head) as { tree: string }).tree, '');
  }

  /** Commits `files` onto `branch` directly (tests and benchmarks seed a history without the API). */
  seed(branch: string, files: Record<string, string>, message = 'seed'): string {
    const head = this.refs.get(`heads/${branch}`);
    const base = head ? (this.objects.get(head) as { tree: string }).tree : undefined;
    const tree = this.tree(
      base,
      Object.entries(files).map(([path, text]) => ({ path, sha: this.blob(text) })),
    )!;
    const commit = this.commit(tree, head ? [head] : [], message);
    this.refs.set(`heads/${branch}`, commit);
    return commit;
  }

  /** Ancestors of `sha` (itself included), nearest first, over both graphs. */
  private ancestors(sha: string): string[] {
    const seen = new Set<string>();
    const queue = [sha];
    while (queue.length) {
      const next = queue.shift()!;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...this.parentsOf(next));
    }
    return [...seen];
  }

  private parentsOf(sha: string): string[] {
    const object = this.objects.get(sha);
    return object?.type === 'commit' ? object.parents : (this.graph.get(sha) ?? []);
  }

  private known(sha: string): boolean {
    return this.graph.has(sha) || this.objects.get(sha)?.type === 'commit';
  }

  private resolve(rev: string): string | undefined {
    if (this.known(rev)) return rev;
    return this.branches.get(rev) ?? this.refs.get(`heads/${rev}`);
  }

  private moveRef(ref: string, sha: string, create: boolean, force: boolean): Reply {
    const failure = this.refFailures.shift();
    if (failure) return { status: failure, json: { message: 'Reference update failed (forced)' } };
    if (this.objects.get(sha)?.type !== 'commit') return invalid(`Object ${sha} is not a commit`);
    const current = this.refs.get(ref);
    if (create && current) return invalid('Reference already exists');
    if (!create && !current) return invalid('Reference does not exist');
    if (current && !force && !this.ancestors(sha).includes(current))
      return invalid('Update is not a fast forward');
    this.refs.set(ref, sha);
    return {
      status: create ? 201 : 200,
      json: { ref: `refs/${ref}`, object: { sha, type: 'commit' } },
    };
  }

  /** Answers the routes this repository serves; undefined for any other path. */
  route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Reply | undefined {
    const m = /^\/repos\/[^/]+\/[^/]+\/(.+)$/.exec(path);
    if (!m) return undefined;
    let rest = m[1]!;
    try {
      rest = decodeURIComponent(rest);
    } catch {
      // not percent-encoded after all: match it as it is
    }
    try {
      return this.answer(method, rest, query, body);
    } catch (error) {
      if ((error as Reply).status) return error as Reply;
      throw error;
    }
  }

  private answer(
    method: string,
    rest: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Reply | undefined {
    let m: RegExpExecArray | null;
    if ((m = /^git\/ref\/(heads\/.+)$/.exec(rest)) && method === 'GET') {
      const sha = this.refs.get(m[1]!);
      if (!sha) return notFound(m[1]!);
      return { status: 200, json: { ref: `refs/${m[1]}`, object: { sha, type: 'commit' } } };
    }
    if (rest === 'git/refs' && method === 'POST') {
      const ref = String(body.ref).replace(/^refs\//, '');
      return this.moveRef(ref, String(body.sha), true, false);
    }
    if ((m = /^git\/refs\/(heads\/.+)$/.exec(rest)) && method === 'PATCH')
      return this.moveRef(m[1]!, String(body.sha), false, body.force === true);
    if ((m = /^git\/blobs\/([0-9a-f]{40})$/.exec(rest)) && method === 'GET') {
      const blob = this.objects.get(m[1]!);
      if (blob?.type !== 'blob') return notFound(m[1]!);
      // GitHub wraps base64 at 60 characters.
      const content = (blob.content.toString('base64').match(/.{1,60}/g) ?? []).join('\n');
      return {
        status: 200,
        json: { sha: m[1], size: blob.content.length, encoding: 'base64', content },
      };
    }
    if (rest === 'git/blobs' && method === 'POST') {
      const encoding = body.encoding === 'base64' ? 'base64' : 'utf8';
      const sha = this.blob(Buffer.from(String(body.content), encoding));
      return { status: 201, json: { sha } };
    }
    if ((m = /^git\/trees\/([0-9a-f]{40})$/.exec(rest)) && method === 'GET') {
      const root = m[1]!;
      if (this.objects.get(root)?.type !== 'tree') return notFound(root);
      const list = (sha: string, prefix: string): object[] =>
        this.treeEntries(sha).flatMap((e) => [
          {
            path: `${prefix}${e.name}`,
            mode: e.mode,
            type: e.type,
            sha: e.sha,
            ...(e.type === 'blob' ? { size: this.blobSize(e.sha) } : {}),
          },
          ...(query.has('recursive') && e.type === 'tree'
            ? list(e.sha, `${prefix}${e.name}/`)
            : []),
        ]);
      return { status: 200, json: { sha: root, tree: list(root, ''), truncated: false } };
    }
    if (rest === 'git/trees' && method === 'POST') {
      const items = (body.tree as { path: string; sha?: string | null; content?: string }[]) ?? [];
      const changes = items.map((t) => ({
        path: t.path,
        sha: t.content !== undefined ? this.blob(t.content) : (t.sha ?? null),
      }));
      const base = typeof body.base_tree === 'string' ? body.base_tree : undefined;
      const sha = this.tree(base, changes) ?? this.put({ type: 'tree', entries: [] });
      return { status: 201, json: { sha, tree: [] } };
    }
    if ((m = /^git\/commits\/([0-9a-f]{40})$/.exec(rest)) && method === 'GET') {
      const commit = this.objects.get(m[1]!);
      if (commit?.type !== 'commit') return notFound(m[1]!);
      return {
        status: 200,
        json: {
          sha: m[1],
          tree: { sha: commit.tree },
          parents: commit.parents.map((sha) => ({ sha })),
          message: commit.message,
        },
      };
    }
    if (rest === 'git/commits' && method === 'POST') {
      const tree = String(body.tree);
      const parents = (body.parents as string[]) ?? [];
      if (this.objects.get(tree)?.type !== 'tree') return invalid(`Tree ${tree} does not exist`);
      if (parents.some((p) => this.objects.get(p)?.type !== 'commit'))
        return invalid('Parent commit does not exist');
      const sha = this.commit(tree, parents, String(body.message));
      return {
        status: 201,
        json: { sha, tree: { sha: tree }, parents: parents.map((p) => ({ sha: p })) },
      };
    }
    if ((m = /^compare\/(.+)\.\.\.(.+)$/.exec(rest)) && method === 'GET') {
      const base = this.resolve(m[1]!);
      const head = this.resolve(m[2]!);
      if (!base || !head) return notFound(`compare ${rest}`);
      const ofBase = new Set(this.ancestors(base));
      const mergeBase = this.ancestors(head).find((c) => ofBase.has(c));
      if (!mergeBase) return notFound('no merge base');
      return {
        status: 200,
        json: { merge_base_commit: { sha: mergeBase }, commits: [], files: [] },
      };
    }
    if ((m = /^commits\/([^/]+)$/.exec(rest)) && method === 'GET') {
      const sha = this.resolve(m[1]!);
      if (!sha) return invalid(`No commit found for SHA: ${m[1]}`);
      return {
        status: 200,
        json: { sha, parents: this.parentsOf(sha).map((p) => ({ sha: p })), files: [] },
      };
    }
    return undefined;
  }
}
