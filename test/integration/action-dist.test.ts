import { DEFAULT_SCORER } from '../../src/stages/score/scorer.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { COMMENT_MARKER } from '../../src/stages/report/markdown.js';
import { resultsSchema } from '../../src/contracts/results.js';
import { runAction } from '../helpers/action.js';
import { FakeGitHub } from '../helpers/github-server.js';
import { FIXTURE_SUITE, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';

describe('the bundled Action (dist/index.js) on a pull_request', () => {
  const github = new FakeGitHub();
  let endpoint: RunningServer;
  let env: Record<string, string>;
  const work = tempDir('tg-action-work-');
  const inputs = (extra: Record<string, string> = {}) => ({
    endpoint: endpoint.url,
    model: HEURISTIC_MODEL,
    instances: FIXTURE_SUITE,
    cache: join(work, 'cache'),
    'github-token': 'ghs_test_token',
    'base-image': 'tracegate/base:bookworm',
    ...extra,
  });

  beforeAll(async () => {
    await requireDocker();
    endpoint = await startHeuristicServer();
    const apiUrl = await github.start();
    const event = join(work, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({
        pull_request: { number: 7, head: { sha: 'feedc0de' } },
        repository: { name: 'models', owner: { login: 'acme' } },
      }),
    );
    env = {
      GITHUB_API_URL: apiUrl,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'acme/models',
      GITHUB_SHA: 'mergec0de',
    };
  });
  afterAll(async () => {
    await github.stop();
    await endpoint.close();
  });

  it('comments once, edits in place, and gives the check run the verdict as conclusion', async () => {
    const first = await runAction(inputs({ out: join(work, 'out1') }), env);
    expect(first.code).toBe(0);
    expect(first.outputs.verdict).toBe('no-baseline');
    // The demo model is right on the covered lines and the caught exception, wrong on the
    // three loop counts it cannot know from the prompt: 2 of 5.
    expect(first.outputs.score).toBe('0.4');
    expect(first.summary).toContain('| S2_Loops | 0.0% (0/3) |');
    expect(github.comments.get(7)).toHaveLength(1);
    const commentId = github.comments.get(7)![0]!.id;
    expect(github.comments.get(7)![0]!.body).toContain(COMMENT_MARKER);
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({
      name: 'tracegate',
      head_sha: 'feedc0de',
      status: 'completed',
      conclusion: 'neutral',
    });
    expect(github.requests.every((r) => r.auth === 'token ghs_test_token')).toBe(true);

    // Each record carries what the gate pairs and clusters on.
    const results = resultsSchema.parse(JSON.parse(readFileSync(first.outputs.results!, 'utf8')));
    expect(results.provenance.scorer).toBe(DEFAULT_SCORER);
    const loops = results.instances.filter((r) => r.kind === 'S2_Loops');
    expect(loops.map((r) => r.cluster)).toEqual(
      Array(3).fill({ test: 'plain:test_numbers.py', package: 'plain' }),
    );
    expect(results.instances.every((r) => /^[0-9a-f]{64}$/.test(r.oracleDigest ?? ''))).toBe(true);

    // A baseline that answered every loop question right. The fixture suite has 5 instances in
    // 3 test files: the gate needs 10 paired items in 5 clusters before it tests anything, so an
    // honest verdict on this suite is inconclusive, whatever the drop. The run samples 3 of the
    // 5; inconclusive at the first look, the top-up adds the 2 the baseline answered outside the
    // sample, and the second look is still inconclusive — with on-inconclusive: fail that fails
    // the check and the job.
    const baseline = {
      ...results,
      instances: results.instances.map((r) =>
        r.kind === 'S2_Loops' ? { ...r, correct: true } : r,
      ),
    };
    const baselineFile = join(work, 'baseline.json');
    writeFileSync(baselineFile, JSON.stringify(baseline));

    const second = await runAction(
      inputs({
        out: join(work, 'out2'),
        baseline: baselineFile,
        sample: '3',
        'top-up': '2',
        'on-inconclusive': 'fail',
      }),
      env,
    );
    expect(second.code).toBe(1);
    expect(second.outputs.verdict).toBe('inconclusive');
    expect(second.stdout).toMatch(
      /::error::tracegate: inconclusive, and on-inconclusive is fail — Cannot decide: only 5 paired item\(s\) in 3 cluster\(s\) \(the gate needs 10 in 5\)/,
    );
    expect(second.stdout).toMatch(
      /Inconclusive at the first look \(α 0\.0\d+\): topping up with 2 instance/,
    );
    // Both batches' oracles came from the cache the first run filled.
    expect(second.stdout).toMatch(/Oracles: 3 from cache, 0 harvested/);
    expect(second.stdout).toMatch(/Oracles: 2 from cache, 0 harvested/);
    const gated = resultsSchema.parse(JSON.parse(readFileSync(second.outputs.results!, 'utf8')));
    expect(gated.instances).toHaveLength(5);
    expect(gated.comparison).toMatchObject({
      verdict: 'inconclusive',
      causes: ['too few items'],
      look: { index: 2, of: 2 },
      topUp: { planned: 2, added: 2 },
      overall: { paired: 5, clusters: 3, lost: 3, gained: 0 },
    });
    expect(github.comments.get(7)).toHaveLength(1);
    expect(github.comments.get(7)![0]!.id).toBe(commentId);
    const body = github.comments.get(7)![0]!.body;
    expect(body).toContain('🟡 **inconclusive**');
    expect(body).toContain('**Top-up:** the first look was inconclusive, so 2 paired item(s)');
    expect(body).toMatch(
      /\| S2_Loops \| 0\.0% \(0\/3\) \| [0-9.]+% \| 3 \(1\) \| 100\.0% \| 0\.0% \| −100\.0 pp \| — \| 🟠 too few to decide \(1 cluster; the gate needs 5\) \|/,
    );
    expect(github.checkRuns).toHaveLength(2);
    expect(github.checkRuns[1]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(github.checkRuns[1]!.output?.title).toMatch(/^inconclusive: /);

    // The default, on-inconclusive: neutral — the same data neither blocks nor approves.
    const third = await runAction(
      inputs({ out: join(work, 'out3'), baseline: baselineFile, sample: '3', 'top-up': '2' }),
      env,
    );
    expect(third.code).toBe(0);
    expect(third.outputs.verdict).toBe('inconclusive');
    expect(third.stdout).toMatch(/::warning::tracegate: inconclusive — Cannot decide/);
    expect(github.checkRuns[2]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
  });

  it('degrades to the job summary when the token is read-only (fork PR)', async () => {
    github.readOnly = true;
    try {
      const before = github.comments.get(7)?.[0]?.body;
      const run = await runAction(inputs({ out: join(work, 'out4') }), env);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/::notice::tracegate could not create a check run/);
      expect(run.summary).toContain(COMMENT_MARKER);
      expect(github.comments.get(7)?.[0]?.body).toBe(before);
    } finally {
      github.readOnly = false;
    }
  });

  it('fails with a message naming the input when an input is invalid', async () => {
    const run = await runAction(inputs({ concurrency: 'lots' }), env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error::input concurrency must be an integer in 1..256, got "lots"/,
    );
  });
});
