import * as core from '@actions/core';
import type { OnInconclusive, Verdict } from '../contracts/comparison.js';
import { GitHubReporter, isPermissionError, type CheckConclusion } from './reporter.js';

/**
 * The check run's conclusion: success for pass, failure for fail, neutral
 * without a baseline; an inconclusive verdict is what `on-inconclusive` says
 * (neutral by default: neither blocks nor approves).
 */
export function conclusionFor(verdict: Verdict, onInconclusive: OnInconclusive): CheckConclusion {
  switch (verdict) {
    case 'pass':
      return 'success';
    case 'fail':
      return 'failure';
    case 'no-baseline':
      return 'neutral';
    case 'inconclusive':
      return onInconclusive === 'pass'
        ? 'success'
        : onInconclusive === 'fail'
          ? 'failure'
          : 'neutral';
  }
}

/**
 * Runs a GitHub write; a permission error (fork PR, read-only token)
 * degrades to a notice so the job summary still carries the report.
 */
export async function tolerantly<T>(
  what: string,
  action: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await action();
  } catch (error) {
    if (isPermissionError(error)) {
      core.notice(
        `tracegate could not ${what} (the token is read-only, as on pull requests from forks). ` +
          'The report is in the job summary; to comment on fork PRs use the two-workflow pattern in the README.',
      );
      return undefined;
    }
    throw error;
  }
}

export { GitHubReporter };
