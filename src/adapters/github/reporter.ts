import type { getOctokit } from '@actions/github';
import type { Annotation } from '../../contracts/comparison.js';
/** The login a workflow's GITHUB_TOKEN writes as. */
export const ACTIONS_BOT = 'github-actions[bot]';

/** The hidden first line that finds run `name`'s sticky comment (names are [A-Za-z0-9._-]). */
export const commentMarker = (name: string): string =>
  `<!-- tracegate:comment ${name.replace(/[^A-Za-z0-9._-]/g, '_')} -->`;

export type Octokit = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export type CheckConclusion = 'success' | 'failure' | 'neutral';

/** GitHub takes at most 50 annotations per check-run request; more take more updates. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** A pull request as tracegate reads it. */
export interface PullRef {
  number: number;
  headSha: string;
  baseRef: string;
  labels: string[];
  merged: boolean;
}

/** GitHub's limit for a check run's output summary and a comment body. */
const MAX_BODY = 65_000;

function clip(text: string): string {
  return text.length <= MAX_BODY
    ? text
    : `${text.slice(0, MAX_BODY)}\n\n…(truncated; see the results artifact)`;
}

/**
 * Posts results to GitHub through an Octokit passed in: one sticky PR comment
 * (found by its hidden marker, edited in place) and one check run (created at
 * the start, completed at the end).
 */
export class GitHubReporter {
  constructor(
    private readonly octokit: Octokit,
    private readonly repo: RepoRef,
  ) {}

  private self?: Promise<string>;

  /**
   * Who this token writes as: its user's login, or — for the workflow's
   * GITHUB_TOKEN, which may not read /user — the Actions bot.
   */
  private login(): Promise<string> {
    this.self ??= this.octokit.rest.users.getAuthenticated().then(
      (r) => r.data.login,
      () => ACTIONS_BOT,
    );
    return this.self;
  }

  /**
   * Creates the comment of run `name`, or edits the one that carries its
   * marker AND was written by this token's own user: a comment by anyone
   * else that contains the marker is left alone.
   */
  async upsertComment(
    issueNumber: number,
    body: string,
    name = 'tracegate',
  ): Promise<{ id: number; action: 'created' | 'updated' }> {
    const marker = commentMarker(name);
    const text = clip(`${marker}\n${body}`);
    const [comments, self] = await Promise.all([
      this.octokit.paginate(this.octokit.rest.issues.listComments, {
        ...this.repo,
        issue_number: issueNumber,
        per_page: 100,
      }),
      this.login(),
    ]);
    const existing = comments.find(
      (c) => c.user?.login === self && c.body?.split('\n', 1)[0] === marker,
    );
    if (existing) {
      await this.octokit.rest.issues.updateComment({
        ...this.repo,
        comment_id: existing.id,
        body: text,
      });
      return { id: existing.id, action: 'updated' };
    }
    const { data } = await this.octokit.rest.issues.createComment({
      ...this.repo,
      issue_number: issueNumber,
      body: text,
    });
    return { id: data.id, action: 'created' };
  }

  async startCheck(name: string, headSha: string): Promise<number> {
    const { data } = await this.octokit.rest.checks.create({
      ...this.repo,
      name,
      head_sha: headSha,
      status: 'in_progress',
      started_at: new Date().toISOString(),
    });
    return data.id;
  }

  /**
   * Completes the check with its conclusion and summary; annotations beyond
   * the first 50 go in further updates (GitHub appends them).
   */
  async completeCheck(
    checkRunId: number,
    conclusion: CheckConclusion,
    title: string,
    summary: string,
    annotations: readonly Annotation[] = [],
  ): Promise<void> {
    const output = { title, summary: clip(summary) };
    const batches = batchesOf(annotations);
    await this.octokit.rest.checks.update({
      ...this.repo,
      check_run_id: checkRunId,
      status: 'completed',
      conclusion,
      completed_at: new Date().toISOString(),
      output: { ...output, ...(batches[0] ? { annotations: batches[0] } : {}) },
    });
    for (const batch of batches.slice(1)) {
      await this.octokit.rest.checks.update({
        ...this.repo,
        check_run_id: checkRunId,
        output: { ...output, annotations: batch },
      });
    }
  }

  /** A check created already completed (mode: report posts a finished run). */
  async postCheck(
    name: string,
    headSha: string,
    conclusion: CheckConclusion,
    title: string,
    summary: string,
    annotations: readonly Annotation[] = [],
  ): Promise<number> {
    const { data } = await this.octokit.rest.checks.create({
      ...this.repo,
      name,
      head_sha: headSha,
      status: 'in_progress',
      started_at: new Date().toISOString(),
    });
    await this.completeCheck(data.id, conclusion, title, summary, annotations);
    return data.id;
  }

  /** Pull request `number`: its head and labels. */
  async pull(number: number): Promise<PullRef> {
    const { data } = await this.octokit.rest.pulls.get({ ...this.repo, pull_number: number });
    return {
      number: data.number,
      headSha: data.head.sha,
      baseRef: data.base.ref,
      labels: data.labels.map((l) => l.name ?? '').filter(Boolean),
      merged: Boolean(data.merged_at),
    };
  }

  /** The pull requests a commit belongs to (a push run finds the PR it merged). */
  async pullsOf(sha: string): Promise<PullRef[]> {
    const { data } = await this.octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...this.repo,
      commit_sha: sha,
    });
    return data.map((p) => ({
      number: p.number,
      headSha: p.head.sha,
      baseRef: p.base.ref,
      labels: p.labels.map((l) => l.name ?? '').filter(Boolean),
      merged: Boolean(p.merged_at),
    }));
  }
}

function batchesOf<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(items.slice(i, i + ANNOTATIONS_PER_REQUEST));
  return batches;
}

/** True for the errors a read-only token (fork PRs) produces. */
export function isPermissionError(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return status === 403 || status === 404;
}
