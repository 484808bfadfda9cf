import type { getOctokit } from '@actions/github';
import { HistoryAccessError } from './errors.js';
import { describeApiFailure } from '../github/api-failure.js';

/** The Octokit client `@actions/github` makes; passed in, never built here. */
export type Octokit = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

/** One item of a tree listing. */
export interface TreeItem {
  path: string;
  type: string;
  sha: string;
  /** A blob's size in bytes, as the listing gives it (read before the blob is). */
  size?: number;
}

/** A change to a tree: a blob at `path`, or `sha: null` to delete it. */
export interface TreeChange {
  path: string;
  sha: string | null;
}

const statusOf = (error: unknown): number | undefined => (error as { status?: number }).status;

/**
 * The GitHub git-data API (refs, commits, trees, blobs) as the few calls a
 * data branch needs. Blobs, not the contents API (which stops at 1 MB);
 * trees one level at a time, never a recursive listing of everything.
 * Trees are content-addressed, so each listing is fetched once.
 */
export class GitData {
  private readonly trees = new Map<string, Promise<TreeItem[]>>();

  constructor(
    private readonly octokit: Octokit,
    private readonly repo: RepoRef,
    /** For messages: `branch tracegate-data of acme/models`. */
    private readonly location: string,
  ) {}

  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const status = statusOf(error);
      const { owner, repo } = this.repo;
      if (status === 403)
        throw new HistoryAccessError(
          `Could not ${what} on ${this.location} (HTTP 403): the token lacks permission on ${owner}/${repo}. ` +
            'Give the job `permissions: contents: write` (reading needs `contents: read`); on a fork PR ' +
            'the token is read-only, so record history from push runs of the base branch.',
          status,
        );
      throw new HistoryAccessError(
        `Could not ${what} on ${this.location}: ${describeApiFailure(error)}. ` +
          'Re-run the job; if it persists, check the GitHub API status.',
        status,
      );
    }
  }

  /** The branch's commit sha, or undefined when the branch does not exist. */
  async head(branch: string): Promise<string | undefined> {
    try {
      const { data } = await this.octokit.rest.git.getRef({ ...this.repo, ref: `heads/${branch}` });
      return data.object.sha;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      return this.call('read the branch', () => Promise.reject(error));
    }
  }

  async commitTree(commit: string): Promise<string> {
    const { data } = await this.call(`read commit ${commit}`, () =>
      this.octokit.rest.git.getCommit({ ...this.repo, commit_sha: commit }),
    );
    return data.tree.sha;
  }

  tree(sha: string): Promise<TreeItem[]> {
    let listing = this.trees.get(sha);
    if (!listing) {
      listing = this.call(`read tree ${sha}`, () =>
        this.octokit.rest.git.getTree({ ...this.repo, tree_sha: sha }),
      ).then(({ data }) => {
        if (data.truncated)
          throw new HistoryAccessError(
            `A tree of ${this.location} is too large to list (${sha}): set a retention to keep fewer entries.`,
          );
        return data.tree.map((t) => ({
          path: t.path ?? '',
          type: t.type ?? '',
          sha: t.sha ?? '',
          ...(typeof t.size === 'number' ? { size: t.size } : {}),
        }));
      });
      listing.catch(() => this.trees.delete(sha));
      this.trees.set(sha, listing);
    }
    return listing;
  }

  /** The item at `path` (slash-separated) under the tree `root`, walking one level at a time. */
  async find(root: string, path: string): Promise<TreeItem | undefined> {
    let tree = root;
    const segments = path.split('/');
    for (const [i, segment] of segments.entries()) {
      const item = (await this.tree(tree)).find((t) => t.path === segment);
      if (!item) return undefined;
      if (i === segments.length - 1) return item;
      if (item.type !== 'tree') return undefined;
      tree = item.sha;
    }
    return undefined;
  }

  async blob(sha: string): Promise<string> {
    const { data } = await this.call(`read blob ${sha}`, () =>
      this.octokit.rest.git.getBlob({ ...this.repo, file_sha: sha }),
    );
    return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString(
      'utf8',
    );
  }

  async createBlob(text: string): Promise<string> {
    const { data } = await this.call('write a blob', () =>
      this.octokit.rest.git.createBlob({
        ...this.repo,
        content: Buffer.from(text, 'utf8').toString('base64'),
        encoding: 'base64',
      }),
    );
    return data.sha;
  }

  /** A tree of `changes` on top of `base` (none: a tree of only the changes). */
  async createTree(base: string | undefined, changes: readonly TreeChange[]): Promise<string> {
    const { data } = await this.call('write a tree', () =>
      this.octokit.rest.git.createTree({
        ...this.repo,
        ...(base ? { base_tree: base } : {}),
        tree: changes.map((c) => ({ path: c.path, mode: '100644', type: 'blob', sha: c.sha })),
      }),
    );
    return data.sha;
  }

  async createCommit(message: string, tree: string, parents: string[]): Promise<string> {
    const { data } = await this.call('write a commit', () =>
      this.octokit.rest.git.createCommit({ ...this.repo, message, tree, parents }),
    );
    return data.sha;
  }

  /**
   * Moves the branch to `commit` (creates it when `existed` is false).
   * Returns false when another writer got there first (409/422: not a fast
   * forward, or the ref already exists / no longer exists): re-read and retry.
   */
  async moveRef(branch: string, commit: string, existed: boolean): Promise<boolean> {
    try {
      if (existed)
        await this.octokit.rest.git.updateRef({
          ...this.repo,
          ref: `heads/${branch}`,
          sha: commit,
          force: false,
        });
      else
        await this.octokit.rest.git.createRef({
          ...this.repo,
          ref: `refs/heads/${branch}`,
          sha: commit,
        });
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 409 || status === 422) return false;
      return this.call(`move ${branch}`, () => Promise.reject(error));
    }
  }
}
