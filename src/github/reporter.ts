import type { getOctokit } from '@actions/github';
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

  async completeCheck(
    checkRunId: number,
    conclusion: CheckConclusion,
    title: string,
    summary: string,
  ): Promise<void> {
    await this.octokit.rest.checks.update({
      ...this.repo,
      check_run_id: checkRunId,
      status: 'completed',
      conclusion,
      completed_at: new Date().toISOString(),
      output: { title, summary: clip(summary) },
    });
  }
}

/** True for the errors a read-only token (fork PRs) produces. */
export function isPermissionError(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return status === 403 || status === 404;
}
