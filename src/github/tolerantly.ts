import * as core from '@actions/core';
import type { Verdict } from '../compare/gate.js';
import { GitHubReporter, isPermissionError, type CheckConclusion } from './reporter.js';

export const CONCLUSION: Record<Verdict, CheckConclusion> = {
  pass: 'success',
  fail: 'failure',
  inconclusive: 'neutral',
  'no-baseline': 'neutral',
};

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
