import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCommitGraph } from '../../src/adapters/history/commit-graph.js';

/** The CLI's commit graph: a real clone, asked through `git`. */
describe('gitCommitGraph', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-git-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      },
    })
      .toString()
      .trim();
  const commit = (message: string) => {
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  let a: string, b: string, c: string, d: string;

  beforeAll(() => {
    git('init', '-q', '-b', 'main');
    a = commit('a');
    b = commit('b');
    c = commit('c');
    git('checkout', '-q', '-b', 'feature', b);
    d = commit('d');
  });

  it('finds the merge base of a branch and the base', async () => {
    const graph = gitCommitGraph(dir);
    expect(await graph.mergeBase('main', d)).toBe(b);
    expect(await graph.mergeBase(c, 'feature')).toBe(b);
  });

  it('lists a commit’s parents, first parent first', async () => {
    const graph = gitCommitGraph(dir);
    expect(await graph.parentsOf(c)).toEqual([b]);
    expect(await graph.parentsOf(a)).toEqual([]);
  });

  it('a commit the clone does not have (a shallow checkout) has no merge base and no parents', async () => {
    const graph = gitCommitGraph(dir);
    const missing = 'f'.repeat(40);
    expect(await graph.mergeBase(missing, d)).toBeUndefined();
    expect(await graph.parentsOf(missing)).toEqual([]);
  });
});
