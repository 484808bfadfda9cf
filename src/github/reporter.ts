import type { getOctokit } from '@actions/github';
import { COMMENT_MARKER } from '../report/markdown.js';

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

  /** Creates the comment, or edits the one carrying our marker. */
  async upsertComment(
    issueNumber: number,
    body: string,
  ): Promise<{ id: number; action: 'created' | 'updated' }> {
    const comments = await this.octokit.paginate(this.octokit.rest.issues.listComments, {
      ...this.repo,
      issue_number: issueNumber,
      per_page: 100,
    });
    const existing = comments.find((c) => c.body?.includes(COMMENT_MARKER));
    if (existing) {
      await this.octokit.rest.issues.updateComment({
        ...this.repo,
        comment_id: existing.id,
        body: clip(body),
      });
      return { id: existing.id, action: 'updated' };
    }
    const { data } = await this.octokit.rest.issues.createComment({
      ...this.repo,
      issue_number: issueNumber,
      body: clip(body),
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
