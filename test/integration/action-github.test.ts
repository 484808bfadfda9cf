import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyEntrySchema, historyIndexSchema } from '../../src/contracts/history.js';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { resultsSchema } from '../../src/contracts/results.js';
import { commentMarker } from '../../src/adapters/github/reporter.js';
import { runAction } from '../helpers/action.js';
import { FIXTURE_SUITE, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FakeGitHub, runtimeToken } from '../helpers/github-server.js';
import { FaultyModelServer } from '../helpers/model-server.js';

const sha = (c: string) => c.repeat(40);
const A = sha('a'); // root of main
const B = sha('b'); // main's head, child of A
const H = sha('c'); // PR #7's head, child of B
const F = sha('d'); // fork PR #8's head, child of B
const ITEMS = 12;

/**
 * A suite the gate can decide on: 12 loop questions in 12 test files (12
 * clusters), inside the workspace so annotations can point at its files.
 * The demo model cannot count these loops; the oracle-echo model can.
 */
function writeSuite(root: string): void {
  mkdirSync(join(root, 'environments'), { recursive: true });
  cpSync(
    join(FIXTURE_SUITE, 'environments', 'plain.json'),
    join(root, 'environments', 'plain.json'),
  );
  for (let i = 0; i < ITEMS; i++) {
    const id = `loop-${String(i).padStart(2, '0')}`;
    const dir = join(root, 'loops', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'numbers_mod.py'),
      'def collatz_steps(n):\n    steps = 0\n    while n != 1:\n        if n % 2 == 0:\n' +
        '            n = n // 2\n        else:\n            n = 3 * n + 1\n        steps += 1\n    return steps\n',
    );
    writeFileSync(
      join(dir, `test_${id.replace('-', '_')}.py`),
      `from numbers_mod import collatz_steps\n\n\ndef test_n():\n    assert collatz_steps(${i + 3}) >= 0  # ${id}\n`,
    );
    writeFileSync(
      join(dir, 'instance.json'),
      JSON.stringify({
        id,
        kind: 'S2_Loops',
        environment: 'plain',
        tests: [`test_${id.replace('-', '_')}.py::test_n`],
        target: { file: 'numbers_mod.py', function: 'collatz_steps' },
        query: { invocation: 1, loop_line: 3 },
        timeout_seconds: 60,
      }),
    );
  }
}

describe('the Action against GitHub (a loopback server speaking its REST API)', () => {
  const github = new FakeGitHub();
  let heuristic: RunningServer;
  /** Answers each question with its oracle, found by the item id the test file carries. */
  let oracles = new Map<string, unknown>();
  const echo = new FaultyModelServer((prompt) => {
    const id = /loop-\d\d/.exec(prompt)?.[0];
    return `\`\`\`json\n${JSON.stringify(id ? oracles.get(id) : {})}\n\`\`\``;
  });
  let echoUrl = '';
  let api = '';
  const work = tempDir('tg-action-gh-');
  const workspace = join(work, 'ws');
  const cache = join(work, 'cache');
  let outs = 0;

  const baseEnv = () => ({
    GITHUB_API_URL: api,
    GITHUB_REPOSITORY: 'acme/models',
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '1',
  });
  const inputs = (model: 'heuristic' | 'echo', extra: Record<string, string> = {}) => ({
    endpoint: model === 'echo' ? echoUrl : heuristic.url,
    model: model === 'echo' ? 'oracle-echo' : HEURISTIC_MODEL,
    instances: join(workspace, 'suite'),
    cache,
    out: join(work, `out-${++outs}`),
    'github-token': 'ghs_test_token',
    ...extra,
  });
  const push = (
    commit: string,
    parent: string,
    model: 'heuristic' | 'echo',
    extra = {},
    branch = 'main',
  ) =>
    runAction(
      inputs(model, extra),
      {
        ...baseEnv(),
        GITHUB_EVENT_NAME: 'push',
        GITHUB_SHA: commit,
        GITHUB_REF: `refs/heads/${branch}`,
      },
      { before: parent, after: commit, repository: { name: 'models', owner: { login: 'acme' } } },
    );
  const pullRequest = (
    number: number,
    head: string,
    model: 'heuristic' | 'echo',
    extra: Record<string, string> = {},
    labels: string[] = [],
    env: Record<string, string> = {},
  ) =>
    runAction(
      inputs(model, extra),
      {
        ...baseEnv(),
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_SHA: sha('e'),
        GITHUB_REF: `refs/pull/${number}/merge`,
        ...env,
      },
      {
        pull_request: {
          number,
          head: { sha: head, ref: `feature-${number}` },
          base: { sha: B, ref: 'main' },
          labels: labels.map((name) => ({ name })),
        },
        repository: { name: 'models', owner: { login: 'acme' } },
      },
    );
  const entryOf = (name: string, commit: string) => {
    const text = github.repo.readFile('tracegate-data', `entries/${name}/${commit}.json`);
    return text === undefined ? undefined : historyEntrySchema.parse(JSON.parse(text));
  };

  beforeAll(async () => {
    await requireDocker();
    writeSuite(join(workspace, 'suite'));
    heuristic = await startHeuristicServer();
    echoUrl = `${await echo.start()}/v1`;
    api = await github.start();
    github.repo.addCommits([
      { sha: A, parents: [] },
      { sha: B, parents: [A] },
      { sha: H, parents: [B] },
      { sha: F, parents: [B] },
    ]);
    github.repo.branches.set('main', B);
    github.pulls.set(7, { number: 7, head: H, base: 'main', labels: [] });
    github.pulls.set(8, { number: 8, head: F, base: 'main', labels: [] });
    // Someone else's comment that carries our marker: it must be left alone.
    github.comments.set(7, [
      {
        id: 1,
        body: `${commentMarker('tracegate')}\nforged by mallory`,
        user: { login: 'mallory', type: 'User' },
      },
    ]);
  }, 120_000);
  afterAll(async () => {
    await github.stop();
    await heuristic.close();
    await echo.stop();
  });

  it('a push run on main writes the data branch; the next push gates against its first parent', async () => {
    const first = await push(A, '0'.repeat(40), 'heuristic');
    expect(first.stdout).not.toMatch(/::error::/);
    if (first.code !== 0 || !entryOf('tracegate', A)) console.log(first.stdout);
    expect(first.code).toBe(0);
    expect(first.outputs.verdict).toBe('no-baseline');
    expect(first.outputs['baseline-sha']).toBe('');
    const entryA = entryOf('tracegate', A);
    expect(entryA?.results.instances).toHaveLength(ITEMS);
    expect(github.repo.readFile('tracegate-data', 'index.html')).toContain('<svg');
    // The oracles the echo model will answer with, from what the tracer harvested.
    oracles = new Map(entryA!.results.instances.map((r) => [r.id, r.oracle]));
    expect(new Set([...oracles.values()].map((o) => JSON.stringify(o))).size).toBeGreaterThan(5);

    // Two runs push at once (two names, one data branch): each write is refused once (a lost
    // race, then a 422), re-read and retried; both land.
    github.repo.failRefWrites(1, 409);
    github.repo.failRefWrites(1, 422);
    const [second, other] = await Promise.all([
      push(B, A, 'echo'),
      push(B, A, 'heuristic', { name: 'second' }),
    ]);
    expect(second.stdout).not.toMatch(/::(error|warning)::/);
    expect(second.code).toBe(0);
    expect(other.code).toBe(0);
    expect(second.outputs.verdict).toBe('pass');
    expect(second.outputs['baseline-sha']).toBe(A);
    expect(entryOf('tracegate', B)?.verdict).toBe('pass');
    expect(entryOf('second', B)).toBeDefined();
    const index = historyIndexSchema.parse(
      JSON.parse(github.repo.readFile('tracegate-data', 'index.json')!),
    );
    expect(index.rows.map((r) => `${r.name}@${r.commit.slice(0, 1)}`).sort()).toEqual([
      'second@b',
      'tracegate@a',
      'tracegate@b',
    ]);
  }, 600_000);

  it('a PR run gates against the merge base, comments with the regressions and annotates them', async () => {
    const run = await pullRequest(7, H, 'heuristic');
    expect(run.code).toBe(1);
    expect(run.outputs.verdict).toBe('fail');
    expect(run.outputs['baseline-sha']).toBe(B);
    expect(run.stdout).toMatch(/::error::tracegate: fail — /);
    // Every item the demo model got wrong was right in the baseline (the echo model's run).
    const results = resultsSchema.parse(JSON.parse(readFileSync(run.outputs.results!, 'utf8')));
    const wrong = results.instances.filter((r) => !r.correct).map((r) => r.id);
    expect(wrong.length).toBeGreaterThanOrEqual(10);
    const regressions = JSON.parse(run.outputs.regressions!) as { id: string; file: string }[];
    expect(regressions.map((r) => r.id)).toEqual(wrong);
    expect(regressions[0]).toMatchObject({
      id: wrong[0],
      file: `loops/${wrong[0]}/instance.json`,
    });

    const comments = github.comments.get(7)!;
    expect(comments).toHaveLength(2);
    expect(comments[0]!.body).toBe(`${commentMarker('tracegate')}\nforged by mallory`);
    const ours = comments[1]!;
    expect(ours.body.split('\n', 1)[0]).toBe(commentMarker('tracegate'));
    expect(ours.body).toMatch(/Compared with oracle-echo .* history: b{7}.*merge base/);
    expect(ours.body).toContain(
      `<details><summary>Regressed items — right in the baseline, wrong now (${wrong.length})</summary>`,
    );
    expect(ours.body).toContain('```mermaid\nxychart-beta');
    expect(ours.body).toMatch(/x-axis \["aaaaaaa", "bbbbbbb", "ccccccc"\]/);

    const check = github.checkRuns.at(-1)!;
    expect(check).toMatchObject({ head_sha: H, status: 'completed', conclusion: 'failure' });
    expect(check.annotations).toHaveLength(wrong.length);
    expect(check.annotations[0]).toMatchObject({
      path: `suite/loops/${wrong[0]}/instance.json`,
      annotation_level: 'failure',
    });
  }, 300_000);

  it('the label accepts the failure: the same comment says so, the check is neutral, the merge records it', async () => {
    const commentId = github.comments.get(7)![1]!.id;
    const run = await pullRequest(7, H, 'heuristic', {}, ['tracegate:accept-regression']);
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('fail');
    expect(run.outputs.accepted).toBe('true');
    expect(run.stdout).toMatch(
      /::warning::tracegate: fail, accepted by the label tracegate:accept-regression/,
    );
    expect(github.comments.get(7)).toHaveLength(2);
    const ours = github.comments.get(7)![1]!;
    expect(ours.id).toBe(commentId);
    expect(ours.body).toContain(
      '🟣 **Regression accepted** by the label `tracegate:accept-regression` (pull request \\#7)',
    );
    expect(github.checkRuns.at(-1)).toMatchObject({ conclusion: 'neutral' });

    // The PR merges as commit M; the push run on main finds the label on the merged PR.
    const M = sha('f');
    github.repo.addCommits([{ sha: M, parents: [B, H] }]);
    github.pulls.set(7, {
      ...github.pulls.get(7)!,
      labels: ['tracegate:accept-regression'],
      mergeCommit: M,
    });
    const merged = await push(M, B, 'heuristic');
    expect(merged.code).toBe(0);
    expect(merged.outputs.verdict).toBe('fail');
    expect(entryOf('tracegate', M)?.accepted).toEqual({
      label: 'tracegate:accept-regression',
      note: 'pull request #7, merged',
    });
  }, 300_000);

  it('two run names keep two comments', async () => {
    const run = await pullRequest(7, H, 'echo', { name: 'second' });
    expect(run.code).toBe(0);
    const comments = github.comments.get(7)!;
    expect(comments).toHaveLength(3);
    expect(comments[2]!.body.split('\n', 1)[0]).toBe(commentMarker('second'));
  }, 300_000);

  it('a fork PR (read-only token) leaves the summary and an artifact; mode: report posts it', async () => {
    github.readOnly = true;
    let run;
    try {
      run = await pullRequest(8, F, 'echo', {}, [], {
        ACTIONS_RUNTIME_TOKEN: runtimeToken(99),
        ACTIONS_RESULTS_URL: `${api}/`,
      });
    } finally {
      github.readOnly = false;
    }
    // The same model as the baseline: no change, and 12 items cannot rule out a 5-point drop.
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('inconclusive');
    expect(run.summary).toContain('🟡 **inconclusive**');
    expect(run.stdout).toMatch(
      /::notice::tracegate could not create a check run, comment on the pull request \(the token is read-only, as on pull requests from forks\)\. The report is in the job summary and the results in artifact tracegate-tracegate/,
    );
    expect(github.comments.get(8)).toBeUndefined();
    expect(github.artifacts).toHaveLength(1);
    expect(github.artifacts[0]).toMatchObject({
      name: 'tracegate-tracegate',
      runId: 99,
      finalized: true,
    });

    // A failing gate still fails the job of a read-only run (and still leaves its artifact).
    github.readOnly = true;
    let failing;
    try {
      failing = await pullRequest(8, F, 'heuristic', {}, [], {
        ACTIONS_RUNTIME_TOKEN: runtimeToken(98),
        ACTIONS_RESULTS_URL: `${api}/`,
      });
    } finally {
      github.readOnly = false;
    }
    expect(failing.code).toBe(1);
    expect(failing.outputs.verdict).toBe('fail');
    expect(github.artifacts.filter((a) => a.runId === 98 && a.finalized)).toHaveLength(1);

    // The trusted workflow_run workflow: downloads the artifact, checks the PR's head, posts.
    const report = await runAction(
      { mode: 'report', 'github-token': 'ghs_write_token' },
      {
        ...baseEnv(),
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_SHA: B,
        GITHUB_REF: 'refs/heads/main',
      },
      {
        workflow_run: { id: 99, head_sha: F, event: 'pull_request' },
        repository: { name: 'models', owner: { login: 'acme' } },
      },
    );
    expect(report.stdout).not.toMatch(/::error::/);
    expect(report.code).toBe(0);
    expect(report.outputs.verdict).toBe('inconclusive');
    const posted = github.comments.get(8)!;
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body.split('\n', 1)[0]).toBe(commentMarker('tracegate'));
    expect(posted[0]!.body).toContain(
      'Posted from artifact tracegate-tracegate of workflow run 99',
    );
    expect(github.checkRuns.at(-1)).toMatchObject({
      head_sha: F,
      status: 'completed',
      conclusion: 'neutral',
    });

    // An artifact whose run built another commit than the PR's head is not posted.
    const stale = await runAction(
      { mode: 'report', 'github-token': 'ghs_write_token' },
      {
        ...baseEnv(),
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_SHA: B,
        GITHUB_REF: 'refs/heads/main',
      },
      {
        workflow_run: { id: 99, head_sha: H, event: 'pull_request' },
        repository: { name: 'models', owner: { login: 'acme' } },
      },
    );
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(
      /::error::artifact tracegate-tracegate of workflow run 99 names pull request #8 .*: not posting\./,
    );
    expect(github.comments.get(8)).toHaveLength(1);

    // A run that left no artifact: nothing to do.
    const none = await runAction(
      { mode: 'report', 'github-token': 'ghs_write_token' },
      {
        ...baseEnv(),
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_SHA: B,
        GITHUB_REF: 'refs/heads/main',
      },
      {
        workflow_run: { id: 100, head_sha: F },
        repository: { name: 'models', owner: { login: 'acme' } },
      },
    );
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(
      'Workflow run 100 left no artifact tracegate-tracegate: nothing to report',
    );
  }, 300_000);

  it('a matrix of three shards uploads its parts; the merge job gates once, and without a shard is inconclusive naming it', async () => {
    const G = sha('9');
    github.repo.addCommits([{ sha: G, parents: [B] }]);
    github.pulls.set(9, { number: 9, head: G, base: 'main', labels: [] });
    const checks = github.checkRuns.length;
    const runEnv = (run: number) => ({
      GITHUB_RUN_ID: String(run),
      ACTIONS_RUNTIME_TOKEN: runtimeToken(run),
      ACTIONS_RESULTS_URL: `${api}/`,
    });
    const matrix = async (run: number, model: 'heuristic' | 'echo') => {
      for (const i of [1, 2, 3]) {
        const shard = await pullRequest(9, G, model, { shard: `${i}/3` }, [], runEnv(run));
        expect(shard.stdout).not.toMatch(/::error::/);
        expect(shard.code).toBe(0); // a part never gates
        expect(shard.outputs['shard-artifact']).toBe(`tracegate-tracegate-shard-${i}-of-3`);
        expect(shard.outputs.verdict).toBeUndefined();
      }
    };
    const merge = (run: number, extra: Record<string, string> = {}) =>
      pullRequest(
        9,
        G,
        'heuristic',
        { mode: 'merge', endpoint: '', model: '', ...extra },
        [],
        runEnv(run),
      );

    await matrix(77, 'heuristic');
    // The parts post nothing: no comment, no check.
    expect(github.comments.get(9)).toBeUndefined();
    expect(github.checkRuns.length).toBe(checks);
    expect(
      github.artifacts
        .filter((a) => a.runId === 77 && a.finalized)
        .map((a) => a.name)
        .sort(),
    ).toEqual([
      'tracegate-tracegate-shard-1-of-3',
      'tracegate-tracegate-shard-2-of-3',
      'tracegate-tracegate-shard-3-of-3',
    ]);
    const merged = await merge(77);
    expect(merged.stdout).toContain('Downloaded 3 shard artifact(s)');
    expect(merged.code).toBe(1);
    expect(merged.outputs.verdict).toBe('fail');
    expect(merged.outputs['baseline-sha']).toBe(B);
    const results = resultsSchema.parse(JSON.parse(readFileSync(merged.outputs.results!, 'utf8')));
    expect(results.instances).toHaveLength(ITEMS);
    expect(results.merged).toEqual({ count: 3, missing: [] });
    expect(github.comments.get(9)).toHaveLength(1);
    expect(github.checkRuns.length).toBe(checks + 1);
    expect(github.checkRuns.at(-1)).toMatchObject({ head_sha: G, conclusion: 'failure' });

    // The echo model's parts, shard 2's job lost: the merge of what is there is never a pass.
    await matrix(78, 'echo');
    github.artifacts.splice(
      github.artifacts.findIndex((a) => a.runId === 78 && a.name.endsWith('-2-of-3')),
      1,
    );
    const partial = await merge(78);
    expect(partial.outputs.verdict).toBe('inconclusive');
    expect(partial.stdout).toMatch(
      /::warning::tracegate: inconclusive — .*shard 2 of 3 gave no results/,
    );
    expect(github.comments.get(9)).toHaveLength(1); // the same sticky comment, updated
    expect(github.comments.get(9)![0]!.body).toMatch(/shard 2 of 3 gave no results/);
    expect(github.checkRuns.at(-1)).toMatchObject({ head_sha: G, conclusion: 'neutral' });
  }, 600_000);

  // Last: its entries (on main and on a new branch) would show in the other tests' trends.
  it('never fails open: with the commit graph unreadable, a push falls back to its previous head, else is baseline-unavailable', async () => {
    github.failCommitReads = 500;
    try {
      // The parent lookup fails; the payload's previous head (B) has an entry: compared with it.
      const C = sha('1');
      github.repo.addCommits([{ sha: C, parents: [B] }]);
      const fallback = await push(C, B, 'echo');
      // Equal runs on 12 items: a pass or an inconclusive, compared with B either way.
      expect(['pass', 'inconclusive']).toContain(fallback.outputs.verdict);
      expect(fallback.outputs['baseline-sha']).toBe(B);
      expect(fallback.stdout).toContain('The commit graph could not be read; comparing with');
      // A new branch's first push (no previous head, no entry on the branch): nothing to fall
      // back on, and the lookup failed — not "no baseline", and never a pass.
      const D = sha('2');
      github.repo.addCommits([{ sha: D, parents: [C] }]);
      const checks = github.checkRuns.length;
      const blind = await push(D, '0'.repeat(40), 'echo', {}, 'feature');
      expect(blind.outputs.verdict).toBe('baseline-unavailable');
      expect(blind.stdout).toMatch(
        /::warning::tracegate: baseline unavailable \(not a pass\) — Baseline unavailable: could not read the parents of [0-9a-f]{7}: HTTP 500: Server Error/,
      );
      expect(github.checkRuns.length).toBeGreaterThan(checks);
      expect(github.checkRuns.at(-1)).toMatchObject({ conclusion: 'neutral' });
      // With on-inconclusive: fail, the same run fails the step.
      const strict = await push(
        D,
        '0'.repeat(40),
        'echo',
        { 'on-inconclusive': 'fail' },
        'feature',
      );
      expect(strict.code).toBe(1);
      expect(github.checkRuns.at(-1)).toMatchObject({ conclusion: 'failure' });
    } finally {
      github.failCommitReads = undefined;
    }
  }, 600_000);
});
