import { getOctokit } from '@actions/github';
import { commentMarker, GitHubReporter } from '../../src/adapters/github/reporter.js';
import { ACTIONS_BOT, FakeGitHub } from '../helpers/github-server.js';

describe('sticky PR comments, one per run name, edited only when ours', () => {
  const github = new FakeGitHub();
  let reporter: GitHubReporter;
  beforeAll(async () => {
    const octokit = getOctokit('ghs_test_token', { baseUrl: await github.start() });
    reporter = new GitHubReporter(octokit, { owner: 'acme', repo: 'models' });
  });
  afterAll(() => github.stop());

  it('keeps two names in two comments, edits each in place, and leaves a look-alike alone', async () => {
    // Someone else's comment that quotes our marker (by hand, or a forged report).
    github.comments.set(12, [
      {
        id: 1,
        body: `${commentMarker('tracegate')}\nlooks like tracegate's`,
        user: { login: 'mallory', type: 'User' },
      },
    ]);
    const a1 = await reporter.upsertComment(12, 'report A, first', 'tracegate');
    const b1 = await reporter.upsertComment(12, 'report B, first', 'nightly');
    const a2 = await reporter.upsertComment(12, 'report A, second', 'tracegate');
    const b2 = await reporter.upsertComment(12, 'report B, second', 'nightly');
    expect([a1.action, b1.action, a2.action, b2.action]).toEqual([
      'created',
      'created',
      'updated',
      'updated',
    ]);
    expect(a2.id).toBe(a1.id);
    expect(b2.id).toBe(b1.id);
    expect(a1.id).not.toBe(b1.id);
    const comments = github.comments.get(12)!;
    expect(comments).toHaveLength(3);
    expect(comments[0]).toMatchObject({ id: 1, body: expect.stringContaining('looks like') });
    expect(comments.find((c) => c.id === a1.id)).toMatchObject({
      body: `${commentMarker('tracegate')}\nreport A, second`,
      user: { login: ACTIONS_BOT },
    });
    expect(comments.find((c) => c.id === b1.id)?.body).toBe(
      `${commentMarker('nightly')}\nreport B, second`,
    );
  });

  it('a marker inside a comment body is not a marker: only the first line finds a comment', async () => {
    github.comments.set(13, [
      {
        id: 2,
        body: `quoting:\n${commentMarker('tracegate')}`,
        user: { login: ACTIONS_BOT, type: 'Bot' },
      },
    ]);
    const made = await reporter.upsertComment(13, 'report', 'tracegate');
    expect(made.action).toBe('created');
    expect(github.comments.get(13)).toHaveLength(2);
  });

  it('sends a check run 120 annotations in batches of 50, and GitHub keeps all of them', async () => {
    const id = await reporter.startCheck('tracegate', 'a'.repeat(40));
    const annotations = Array.from({ length: 120 }, (_, i) => ({
      path: `suite/item-${i}/instance.json`,
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure' as const,
      title: `item-${i} regressed`,
      message: 'Oracle: 3\nAnswer: 4',
    }));
    await reporter.completeCheck(id, 'failure', 'fail: 10.0%', 'the report', annotations);
    const run = github.checkRuns.find((r) => r.id === id)!;
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run.annotationBatches).toEqual([50, 50, 20]);
    expect(run.annotations.map((a) => a.path)).toEqual(annotations.map((a) => a.path));
    expect(run.output).toEqual({ title: 'fail: 10.0%', summary: 'the report' });
  });
});
