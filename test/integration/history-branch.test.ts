import { getOctokit } from '@actions/github';
import { BranchHistory, type BranchHistoryOptions } from '../../src/adapters/history/branch.js';
import { findBaseline, type BaselineEvent } from '../../src/adapters/history/baseline.js';
import { githubCommitGraph } from '../../src/adapters/history/commit-graph.js';
import { HistoryAccessError, HistoryVersionError } from '../../src/adapters/history/errors.js';
import { FakeGitHub } from '../helpers/github-server.js';
import { at, entry, sha, warnings } from '../helpers/history.js';

/**
 * The data branch against a loopback server speaking GitHub's git-data API
 * (test/helpers/git-objects.ts), through a real Octokit over real HTTP.
 */
describe('BranchHistory on a loopback GitHub', () => {
  let github: FakeGitHub;
  let octokit: ReturnType<typeof getOctokit>;
  const repo = { owner: 'acme', repo: 'models' };
  const BRANCH = 'tracegate-data';

  beforeEach(async () => {
    github = new FakeGitHub();
    octokit = getOctokit('ghs_test_token', { baseUrl: await github.start() });
  });
  afterEach(() => github.stop());

  const store = (extra: Partial<BranchHistoryOptions> = {}) => {
    const { warn, seen } = warnings();
    const history = new BranchHistory(octokit, { ...repo, warn, backoffMs: 1, ...extra });
    return { history, seen };
  };

  it('a push run creates the data branch; a fresh reader reads entry and index back', async () => {
    const { history } = store();
    const e = entry('m1', { branch: 'main', verdict: 'no-baseline' });
    const outcome = await history.record(e);
    expect(outcome).toMatchObject({ attempts: 1, dropped: [] });
    expect(outcome.location).toBe(
      `branch tracegate-data of acme/models: entries/tracegate/${e.commit}.json`,
    );
    expect(github.repo.files(BRANCH).sort()).toEqual([
      `entries/tracegate/${e.commit}.json`,
      'index.json',
    ]);
    expect(JSON.parse(github.repo.readFile(BRANCH, `entries/tracegate/${e.commit}.json`)!)).toEqual(
      e,
    );
    // An orphan branch: its first commit has no parent.
    const head = github.repo.refs.get(`heads/${BRANCH}`)!;
    expect(outcome.commit).toBe(head);
    const first = await octokit.rest.git.getCommit({ ...repo, commit_sha: head });
    expect(first.data.parents).toEqual([]);

    await history.record(entry('m2', { branch: 'main', recordedAt: at(1) }));
    const second = await octokit.rest.git.getCommit({
      ...repo,
      commit_sha: github.repo.refs.get(`heads/${BRANCH}`)!,
    });
    expect(second.data.parents.map((p) => p.sha)).toEqual([head]);

    github.requests = [];
    const reader = store().history;
    expect((await reader.index()).map((r) => r.commit)).toEqual([sha('m1'), sha('m2')]);
    expect(await reader.entry('tracegate', e.commit)).toEqual(e);
    expect(await reader.entry('tracegate', sha('absent'))).toBeUndefined();
    // Trees one level at a time (root, entries/, entries/tracegate/), blobs, never the contents API.
    const gets = github.requests.map(
      (r) => `${r.method} ${r.path.replace(/[0-9a-f]{40}/g, 'SHA')}`,
    );
    expect(gets.filter((r) => r.includes('/contents/'))).toEqual([]);
    expect(github.requests.filter((r) => r.query.includes('recursive'))).toEqual([]);
    expect(gets.filter((g) => g.includes('/git/trees/'))).toHaveLength(3);
  });

  it('two writers that read the same head both land: the loser re-reads and merges', async () => {
    github.repo.seed(BRANCH, {});
    github.holdRefWrites(2); // both build on the same head before either moves the ref
    const [ra, rb] = await Promise.all([
      store().history.record(entry('pr-a', { recordedAt: at(1) })),
      store().history.record(entry('pr-b', { recordedAt: at(2) })),
    ]);
    expect([ra.attempts, rb.attempts].sort()).toEqual([1, 2]);
    expect((await store().history.index()).map((r) => r.commit)).toEqual([
      sha('pr-a'),
      sha('pr-b'),
    ]);
  });

  it('two concurrent writers both land after forced 409/422 ref failures', async () => {
    github.repo.seed(BRANCH, {}); // an existing (empty) data branch
    github.repo.failRefWrites(2, 409);
    github.repo.failRefWrites(1, 422);
    const a = store().history;
    const b = store().history;
    const [ra, rb] = await Promise.all([
      a.record(entry('pr-a', { recordedAt: at(1) })),
      b.record(entry('pr-b', { recordedAt: at(2) })),
    ]);
    expect(ra.attempts + rb.attempts).toBeGreaterThanOrEqual(5); // 3 forced + at least 1 lost race
    const rows = await store().history.index();
    expect(rows.map((r) => r.commit).sort()).toEqual([sha('pr-a'), sha('pr-b')].sort());
    expect(github.repo.files(BRANCH).sort()).toEqual(
      [
        `entries/tracegate/${sha('pr-a')}.json`,
        `entries/tracegate/${sha('pr-b')}.json`,
        'index.json',
      ].sort(),
    );
  });

  it('two writers racing to create the branch both land', async () => {
    const [ra, rb] = await Promise.all([
      store().history.record(entry('x1', { recordedAt: at(1) })),
      store().history.record(entry('x2', { recordedAt: at(2) })),
    ]);
    expect([ra.attempts, rb.attempts].sort()).toEqual([1, 2]);
    expect((await store().history.index()).map((r) => r.commit)).toEqual([sha('x1'), sha('x2')]);
  });

  it('gives up after the attempts allowed, saying what to do', async () => {
    github.repo.failRefWrites(3, 422);
    const { history } = store({ attempts: 3 });
    const error = await history.record(entry('m1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryAccessError);
    expect((error as Error).message).toMatch(
      /other writers moved the branch first 3 times in a row\. Re-run the job to record it\.$/,
    );
  });

  it('retention removes old entries from the branch in the same commit', async () => {
    const { history } = store();
    for (let i = 1; i <= 3; i++) await history.record(entry(`m${i}`, { recordedAt: at(i) }));
    const before = github.repo.refs.get(`heads/${BRANCH}`);
    const outcome = await history.record(entry('m4', { recordedAt: at(4) }), {
      retention: { entries: 2 },
    });
    expect(outcome.dropped.map((r) => r.commit)).toEqual([sha('m1'), sha('m2')]);
    expect(github.repo.files(BRANCH).sort()).toEqual(
      [
        `entries/tracegate/${sha('m3')}.json`,
        `entries/tracegate/${sha('m4')}.json`,
        'index.json',
      ].sort(),
    );
    const commit = await octokit.rest.git.getCommit({ ...repo, commit_sha: outcome.commit! });
    expect(commit.data.parents.map((p) => p.sha)).toEqual([before]);
    expect(commit.data.message).toContain('Retention dropped 2 older entries.');
  });

  it('writes extra files (the dashboard for GitHub Pages) from the merged index', async () => {
    const { history } = store();
    await history.record(entry('m1'));
    await history.record(entry('m2', { recordedAt: at(1) }), {
      files: (rows) => ({ 'index.html': `<p>${rows.length}</p>` }),
    });
    expect(github.repo.readFile(BRANCH, 'index.html')).toBe('<p>2</p>');
  });

  it('skips a corrupt index and a foreign entry with warnings naming them', async () => {
    const e = entry('m1');
    github.repo.seed(BRANCH, {
      'index.json': '<<<< merge conflict',
      [`entries/tracegate/${e.commit}.json`]: '{"benchmark": "someone else"}',
    });
    const { history, seen } = store();
    expect(await history.index()).toEqual([]);
    expect(await history.entry('tracegate', e.commit)).toBeUndefined();
    expect(seen).toEqual([
      expect.stringMatching(
        /^branch tracegate-data of acme\/models: index\.json is not valid JSON/,
      ),
      `branch tracegate-data of acme/models: entries/tracegate/${e.commit}.json is not a tracegate ` +
        'history entry (schema none): skipped.',
    ]);
    // A write replaces the unreadable index with one that has the new row.
    await history.record(entry('m2'));
    expect((await store().history.index()).map((r) => r.commit)).toEqual([sha('m2')]);
  });

  it('skips an entry over its bound by the size the tree lists, never fetching the blob', async () => {
    const e = entry('m1');
    await store().history.record(e);
    const { history, seen } = store({ maxEntryBytes: 100 });
    const blobsBefore = github.requests.filter((r) => r.path.includes('/git/blobs/')).length;
    expect(await history.entry('tracegate', e.commit)).toBeUndefined();
    expect(seen).toEqual([
      expect.stringMatching(
        new RegExp(
          `entries/tracegate/${e.commit}\\.json is \\d+ bytes, over the 100 read at most: skipped\\.$`,
        ),
      ),
    ]);
    expect(github.requests.filter((r) => r.path.includes('/git/blobs/')).length).toBe(blobsBefore);
    expect(await store().history.entry('tracegate', e.commit)).toEqual(e); // within the default bound
  });

  it('refuses a branch written by a newer tracegate, and writes nothing to it', async () => {
    github.repo.seed(BRANCH, { 'index.json': '{"schema":"tracegate/history@2","rows":[]}' });
    const head = github.repo.refs.get(`heads/${BRANCH}`);
    const { history } = store();
    await expect(history.index()).rejects.toThrow(HistoryVersionError);
    const error = await history.record(entry('m1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryVersionError);
    expect((error as HistoryVersionError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(
      /^branch tracegate-data of acme\/models: index\.json was written by a newer tracegate \(tracegate\/history@2\)/,
    );
    expect(github.repo.refs.get(`heads/${BRANCH}`)).toBe(head);
  });

  it('a read-only token (fork PR) fails with a 403 that says which permission is missing', async () => {
    github.readOnly = true;
    const error = await store()
      .history.record(entry('m1'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryAccessError);
    expect((error as HistoryAccessError).status).toBe(403);
    expect((error as Error).message).toContain('Give the job `permissions: contents: write`');
  });

  describe('baseline resolution through the API', () => {
    beforeEach(() => {
      const commits = [{ sha: sha('m1'), parents: [] as string[] }];
      for (let i = 2; i <= 6; i++) commits.push({ sha: sha(`m${i}`), parents: [sha(`m${i - 1}`)] });
      commits.push(
        { sha: sha('pr1'), parents: [sha('m3')] },
        { sha: sha('pr2'), parents: [sha('pr1')] },
      );
      github.repo.addCommits(commits);
      github.repo.branches.set('main', sha('m6'));
    });
    const pr: BaselineEvent = {
      kind: 'pull_request',
      number: 7,
      baseRef: 'main',
      baseSha: '',
      headSha: sha('pr2'),
    };
    const candidate = { prompt: 'p3', scorer: 'tracegate-strict@1' };
    const resolve = (history: BranchHistory, event: BaselineEvent) =>
      findBaseline({
        store: history,
        name: 'tracegate',
        event,
        candidate,
        graph: githubCommitGraph(octokit, repo),
      });

    it('a PR gates against the entry of its merge base (compare API)', async () => {
      const writer = store().history;
      for (const label of ['m2', 'm3', 'm6'])
        await writer.record(entry(label, { branch: 'main', recordedAt: at(Number(label[1])) }));
      github.requests = [];
      const { baseline } = await resolve(store().history, pr);
      expect(baseline?.source).toBe(`history: ${sha('m3').slice(0, 7)} (merge base of #7)`);
      expect(github.requests.map((r) => r.path)).toContain(
        '/repos/acme/models/compare/main...' + sha('pr2'),
      );
    });

    it('a push walks back through commits/{sha} to the nearest entry', async () => {
      await store().history.record(entry('m2', { branch: 'main' }));
      const { baseline } = await resolve(store().history, {
        kind: 'push',
        sha: sha('m6'),
        branch: 'main',
      });
      expect(baseline?.how).toBe(`4 commits back from ${sha('m6').slice(0, 7)}`);
      expect(
        github.requests.filter((r) => r.path.includes('/commits/') && !r.path.includes('/git/')),
      ).toHaveLength(4);
    });

    it('no data branch at all: no baseline, and the message says how to create one', async () => {
      const { baseline, message } = await resolve(store().history, pr);
      expect(baseline).toBeUndefined();
      expect(message).toMatch(
        /^No baseline: branch tracegate-data of acme\/models has no comparable entry of tracegate for the merge base of #7 or on main\. A run on a push to the base branch records one/,
      );
    });
  });
});
