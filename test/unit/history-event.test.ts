import { baselineEventOf, branchOf } from '../../src/adapters/history/event.js';

describe('the baseline event of a workflow run', () => {
  it('a pull request: its number, base branch and sha, head sha', () => {
    const context = {
      eventName: 'pull_request',
      sha: 'merge000',
      ref: 'refs/pull/12/merge',
      payload: {
        pull_request: {
          number: 12,
          base: { ref: 'main', sha: 'base111' },
          head: { ref: 'feature/x', sha: 'head222' },
        },
      },
    };
    expect(baselineEventOf(context)).toEqual({
      kind: 'pull_request',
      number: 12,
      baseRef: 'main',
      baseSha: 'base111',
      headSha: 'head222',
    });
    expect(branchOf(context)).toBe('feature/x');
  });

  it('a push: the commit and its branch', () => {
    const context = { eventName: 'push', sha: 'abc', ref: 'refs/heads/main', payload: {} };
    expect(baselineEventOf(context)).toEqual({ kind: 'push', sha: 'abc', branch: 'main' });
    expect(branchOf(context)).toBe('main');
  });

  it('a merge queue group: its head, with its base as the parent', () => {
    const context = {
      eventName: 'merge_group',
      sha: 'grp',
      ref: 'refs/heads/gh-readonly-queue/main/pr-1',
      payload: { merge_group: { base_sha: 'base', head_sha: 'grp' } },
    };
    expect(baselineEventOf(context)).toEqual({ kind: 'push', sha: 'grp', parent: 'base' });
  });

  it('a tag or a schedule on no branch: the commit alone', () => {
    const context = { eventName: 'push', sha: 'abc', ref: 'refs/tags/v1', payload: {} };
    expect(baselineEventOf(context)).toEqual({ kind: 'push', sha: 'abc' });
    expect(branchOf(context)).toBeUndefined();
  });
});
