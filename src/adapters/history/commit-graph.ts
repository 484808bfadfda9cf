import { git as runGit } from '../git/exec.js';
import { describeApiFailure } from '../github/api-failure.js';
import type { CommitGraph } from './baseline.js';
import type { Octokit, RepoRef } from './git-data.js';

const statusOf = (error: unknown): number | undefined => (error as { status?: number }).status;

/**
 * The repository's commit graph through the GitHub API: the compare API's
 * merge base, and a commit's parents. An unknown commit (404/422) has no
 * merge base; other failures propagate (the resolver turns them into notices).
 */
export function githubCommitGraph(octokit: Octokit, repo: RepoRef): Required<CommitGraph> {
  return {
    async mergeBase(base, head) {
      try {
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
          ...repo,
          basehead: `${base}...${head}`,
          per_page: 1,
        });
        return data.merge_base_commit.sha;
      } catch (error) {
        if (statusOf(error) === 404 || statusOf(error) === 422) return undefined;
        throw new Error(describeApiFailure(error), { cause: error });
      }
    },
    async parentsOf(sha) {
      try {
        const { data } = await octokit.rest.repos.getCommit({ ...repo, ref: sha, per_page: 1 });
        return data.parents.map((p) => p.sha);
      } catch (error) {
        if (statusOf(error) === 404 || statusOf(error) === 422) return [];
        throw new Error(describeApiFailure(error), { cause: error });
      }
    },
  };
}

/**
 * The commit graph of a local clone, for the CLI: `git merge-base` and
 * `git rev-list --parents`. A commit the clone does not have (a shallow
 * checkout) has no merge base and no parents.
 */
export function gitCommitGraph(cwd: string): Required<CommitGraph> {
  return {
    async mergeBase(base, head) {
      const { code, stdout, stderr } = await runGit(['merge-base', base, head], { cwd });
      if (code === 0) return stdout || undefined;
      if (
        code === 1 ||
        /not a valid|unknown revision|bad revision|not a git repository/i.test(stderr)
      )
        return undefined;
      throw new Error(`git merge-base ${base} ${head} failed: ${stderr}`);
    },
    async parentsOf(sha) {
      const { code, stdout, stderr } = await runGit(
        ['rev-list', '--parents', '-n', '1', sha, '--'],
        { cwd },
      );
      if (code === 0) return stdout.split(/\s+/).slice(1);
      // Outside a clone there is no graph to read: no parents, as for a commit the clone lacks.
      if (/not a valid|unknown revision|bad revision|bad object|not a git repository/i.test(stderr))
        return [];
      throw new Error(`git rev-list ${sha} failed: ${stderr}`);
    },
  };
}
