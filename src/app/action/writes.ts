import { messageOf } from '../../errors.js';
import { isPermissionError } from '../../adapters/github/reporter.js';

/**
 * The Action's writes to GitHub (check run, comment, history): each is tried
 * once; a permission error (a fork PR's read-only token) is remembered, so
 * the run can fall back to the job summary and an artifact and say so once;
 * any other failure is a warning. Neither costs the run its results or its
 * verdict.
 */
export class GitHubWrites {
  readonly denied: string[] = [];

  constructor(private readonly warn: (message: string) => void) {}

  async attempt<T>(what: string, action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      if (isPermissionError(error)) this.denied.push(what);
      else this.warn(`tracegate could not ${what}: ${messageOf(error)}`);
      return undefined;
    }
  }
}
