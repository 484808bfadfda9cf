import { getOctokit } from '@actions/github';
import { FakeGitHub } from '../helpers/github-server.js';

/** The loopback GitHub itself: what it refuses is what the data-branch tests lean on. */
describe('FakeGitHub', () => {
  const github = new FakeGitHub();
  let octokit: ReturnType<typeof getOctokit>;
  const repo = { owner: 'acme', repo: 'models' };
  const status = (p: Promise<unknown>) =>
    p.then(() => 200).catch((e: { status: number }) => e.status);

  beforeAll(async () => {
    octokit = getOctokit('ghs_test', { baseUrl: await github.start() });
  });
  afterAll(() => github.stop());

  it('still serves comments and check runs beside the git-data API', async () => {
    await octokit.rest.issues.createComment({ ...repo, issue_number: 3, body: 'hello' });
    const { data } = await octokit.rest.checks.create({ ...repo, name: 'tg', head_sha: 'abc' });
    expect(github.comments.get(3)).toEqual([expect.objectContaining({ body: 'hello' })]);
    expect(github.checkRuns[0]).toMatchObject({ id: data.id, name: 'tg' });
  });

  it('refuses what GitHub refuses: a non-fast-forward, an existing ref, a missing path deleted', async () => {
    const first = github.repo.seed('data', { 'a.txt': 'a' });
    const second = github.repo.seed('data', { 'b.txt': 'b' });
    const tree = (await octokit.rest.git.getCommit({ ...repo, commit_sha: first })).data.tree.sha;
    const sibling = (
      await octokit.rest.git.createCommit({ ...repo, message: 'x', tree, parents: [first] })
    ).data.sha;
    expect(
      await status(octokit.rest.git.updateRef({ ...repo, ref: 'heads/data', sha: sibling })),
    ).toBe(422);
    expect(github.repo.refs.get('heads/data')).toBe(second);
    expect(
      await status(octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/data', sha: sibling })),
    ).toBe(422);
    expect(
      await status(
        octokit.rest.git.createTree({
          ...repo,
          base_tree: tree,
          tree: [{ path: 'dir/missing.json', mode: '100644', type: 'blob', sha: null }],
        }),
      ),
    ).toBe(422);
    github.repo.failRefWrites(1, 409);
    expect(
      await status(octokit.rest.git.updateRef({ ...repo, ref: 'heads/data', sha: second })),
    ).toBe(409);
  });

  it('builds nested trees on a base tree, with real git object ids', async () => {
    const { data: blob } = await octokit.rest.git.createBlob({ ...repo, content: 'hello\n' });
    expect(blob.sha).toBe('ce013625030ba8dba906f756967f9e9ca394464a'); // `git hash-object` of "hello\n"
    const { data: t1 } = await octokit.rest.git.createTree({
      ...repo,
      tree: [{ path: 'x/y/z.txt', mode: '100644', type: 'blob', sha: blob.sha }],
    });
    const { data: t2 } = await octokit.rest.git.createTree({
      ...repo,
      base_tree: t1.sha,
      tree: [
        { path: 'x/w.txt', mode: '100644', type: 'blob', sha: blob.sha },
        { path: 'x/y/z.txt', mode: '100644', type: 'blob', sha: null },
      ],
    });
    const { data: listing } = await octokit.rest.git.getTree({
      ...repo,
      tree_sha: t2.sha,
      recursive: 'true',
    });
    expect(listing.tree.map((t) => t.path)).toEqual(['x', 'x/w.txt']);
  });
});
