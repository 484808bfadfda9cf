import type { CometReply } from '../../src/contracts/comet.js';
import type {
  HarvestBackend,
  HarvestJob,
  VerifySpec,
} from '../../src/contracts/harvest-backend.js';
import { instanceSchema } from '../../src/contracts/instance.js';
import { runVerifications, type VerifyItem } from '../../src/stages/harvest/verify.js';
import { ENV, loadedInEnv } from '../helpers/loaded.js';

/**
 * How replies reach the sandbox (stages/harvest/verify.ts): B1's in one job, each B2 run in a job
 * (a container) of its own, the respelled runs only after plain ones that tell the versions apart,
 * and what each job says read strictly. The fake tracer below answers as comet/verify.py does.
 */

function item(id: string, kind: 'B1_BuggyIO' | 'B2_RegressionTest', reply: CometReply): VerifyItem {
  const instance = instanceSchema.parse({
    id,
    kind,
    environment: 'env',
    tests: ['test_m.py'],
    target: { file: 'pkg/m.py', function: 'f' },
    query: { input: '1' },
    mutant: { file: 'pkg/m.py', line: 2, original: '<', replacement: '<=' },
  });
  const loaded = loadedInEnv(instance);
  return { key: id, loaded, reply };
}

type Verdicts = Record<string, 'pass' | 'fail' | 'error'>;

/** A tracer whose B2 test file names its verdict per run (`{"buggy": "fail", ...}`). */
function tracer(
  answer: (spec: VerifySpec, verdicts: Verdicts) => unknown = (spec, verdicts) => ({
    kind: 'B2_RegressionTest',
    runs: Object.fromEntries(
      (spec.verify.runs ?? []).map((run) => [
        run,
        { verdict: verdicts[run] ?? 'pass', exit_code: 0, seconds: 0.1, called: true },
      ]),
    ),
  }),
) {
  const jobs: VerifySpec[][] = [];
  let running = 0;
  let most = 0;
  const backend: HarvestBackend = {
    name: 'fake',
    ensureAvailable: async () => {},
    runtime: async () => {
      throw new Error('not asked');
    },
    run: async (job: HarvestJob) => {
      const specs = job.plan({ instanceDir: (i) => `/i/${i}`, workDir: '/w', isolation: null })
        .instances as VerifySpec[];
      jobs.push(specs);
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      if (specs.some((s) => (s.verify.reply as { test?: string }).test === 'crash'))
        throw new Error('the container died');
      return specs
        .map((spec) => {
          const reply = spec.verify.reply as { test?: string; input?: unknown };
          const verification =
            spec.verify.kind === 'B1_BuggyIO'
              ? {
                  kind: 'B1_BuggyIO',
                  runs: {
                    buggy: { outcome: 'ok', return: '1', seconds: 0.1 },
                    correct: { outcome: 'ok', return: '2', seconds: 0.1 },
                  },
                }
              : answer(spec, JSON.parse(reply.test ?? '{}') as Verdicts);
          return JSON.stringify({
            tracegate_result: 1,
            id: spec.id,
            instance_hash: spec.instance_hash,
            env_digest: spec.env_digest,
            status: 'ok',
            verification,
            question: null,
            template_answer: null,
            python: '3.11.9',
            tracer_version: 'fake',
            stats: { events: 0, invocations: 0, pytest_exit_code: null, seconds: 0.1 },
          });
        })
        .join('\n');
    },
  };
  return { backend, jobs, most: () => most };
}

const test = (verdicts: Verdicts): CometReply => ({ test: JSON.stringify(verdicts) });

describe('verifying replies: each B2 run in a container of its own', () => {
  it('runs B1 replies in one job and each B2 run alone, the respellings only after fail, pass', async () => {
    const fake = tracer();
    const kills = { buggy: 'fail', buggy_respelled: 'fail' } as const;
    const outcomes = await runVerifications(fake.backend, ENV, [
      item('b1-a', 'B1_BuggyIO', { input: '1' }),
      item('b2-kills', 'B2_RegressionTest', test(kills)),
      item('b1-b', 'B1_BuggyIO', { input: '2' }),
      item('b2-both', 'B2_RegressionTest', test({})),
    ]);
    const b2Jobs = fake.jobs.filter((specs) => specs[0]!.verify.kind === 'B2_RegressionTest');
    const b1Jobs = fake.jobs.filter((specs) => specs[0]!.verify.kind === 'B1_BuggyIO');
    expect(b1Jobs.map((specs) => specs.length)).toEqual([2]);
    // One reply, one run, one job: 2 + 2 plain runs, then the killing test's two respellings.
    expect(b2Jobs.every((specs) => specs.length === 1 && specs[0]!.verify.runs!.length === 1)).toBe(
      true,
    );
    const asked = b2Jobs.map((specs) => [
      (specs[0]!.verify.reply as { test: string }).test === JSON.stringify(kills),
      specs[0]!.verify.runs![0],
    ]);
    expect(asked.slice(4).sort()).toEqual([
      [true, 'buggy_respelled'],
      [true, 'correct_respelled'],
    ]);
    expect(
      asked
        .slice(0, 4)
        .map(([, run]) => run)
        .sort(),
    ).toEqual(['buggy', 'buggy', 'correct', 'correct']);
    const verdicts = outcomes.map((o) =>
      o.status === 'ok' && o.verification.kind === 'B2_RegressionTest'
        ? Object.fromEntries(Object.entries(o.verification.runs!).map(([k, r]) => [k, r!.verdict]))
        : o.status,
    );
    expect(verdicts).toEqual([
      'ok',
      { buggy: 'fail', correct: 'pass', buggy_respelled: 'fail', correct_respelled: 'pass' },
      'ok',
      { buggy: 'pass', correct: 'pass' },
    ]);
  });

  it('keeps at most two B2 containers running at once', async () => {
    const fake = tracer();
    const replies = Array.from({ length: 6 }, (_, i) =>
      item(`b2-${i}`, 'B2_RegressionTest', test({ buggy: 'fail' })),
    );
    await runVerifications(fake.backend, ENV, replies);
    expect(fake.jobs).toHaveLength(24); // six replies, four runs each
    expect(fake.most()).toBe(2);
  });

  it('a run the tracer did not ask for, a refusal, a dead container: that reply only', async () => {
    const fake = tracer((spec, verdicts) =>
      (verdicts as Record<string, string>).mode === 'other-run'
        ? {
            kind: 'B2_RegressionTest',
            runs: {
              buggy: { verdict: 'fail', exit_code: 1, seconds: 0.1, called: true },
              correct: { verdict: 'pass', exit_code: 0, seconds: 0.1, called: true },
            },
          }
        : (verdicts as Record<string, string>).mode === 'refused'
          ? { kind: 'B2_RegressionTest', refused: 'the reply has no test file' }
          : {
              kind: 'B2_RegressionTest',
              runs: {
                [spec.verify.runs![0]!]: {
                  verdict: 'fail',
                  exit_code: 1,
                  seconds: 0.1,
                  called: true,
                },
              },
            },
    );
    const outcomes = await runVerifications(fake.backend, ENV, [
      item('other', 'B2_RegressionTest', { test: JSON.stringify({ mode: 'other-run' }) }),
      item('refused', 'B2_RegressionTest', { test: JSON.stringify({ mode: 'refused' }) }),
      item('dies', 'B2_RegressionTest', { test: 'crash' }),
      item('fine', 'B2_RegressionTest', test({})),
    ]);
    expect(outcomes[0]).toEqual({
      status: 'error',
      reason: expect.stringMatching(
        /^asked to run (buggy|correct), the tracer answered for buggy, correct: not verified/,
      ),
    });
    expect(outcomes[1]).toEqual({
      status: 'ok',
      verification: { kind: 'B2_RegressionTest', refused: 'the reply has no test file' },
      cached: false,
    });
    expect(outcomes[2]).toEqual({ status: 'error', reason: 'the container died' });
    expect(outcomes[3]).toMatchObject({
      status: 'ok',
      verification: { runs: { buggy: { verdict: 'fail' }, correct: { verdict: 'fail' } } },
    });
  });
});
