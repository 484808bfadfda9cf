import type { Verification } from '../../src/contracts/comet.js';
import { cometVerdict, replyToRun, summarizeComet } from '../../src/families/comet/score.js';

const call = (outcome: 'ok' | 'crash' | 'timeout', extra: Record<string, string> = {}) => ({
  outcome,
  seconds: 0.1,
  ...(outcome === 'ok' ? { return: '0', stdout: '' } : {}),
  ...extra,
});
const b1 = (buggy: ReturnType<typeof call>, correct: ReturnType<typeof call>): Verification => ({
  kind: 'B1_BuggyIO',
  runs: { buggy, correct },
});
const run = (
  verdict: 'pass' | 'fail' | 'error',
  reason?: string,
  called = verdict !== 'error',
) => ({
  verdict,
  exit_code: verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : 2,
  seconds: 0.4,
  called,
  ...(reason ? { reason } : {}),
});

describe('B1: exposure and the predicted outcome', () => {
  const crashes = b1(call('crash', { exception: 'click.exceptions.UsageError' }), call('ok'));
  it('passes an exposing input whose buggy outcome is predicted (a bare class names the dotted one)', () => {
    expect(
      cometVerdict(
        'B1_BuggyIO',
        { input: 'x', outcome: 'crash', exception: 'UsageError' },
        crashes,
      ),
    ).toEqual({ correct: true, record: { exposed: true, outcomeMatched: true } });
  });
  it('an input on which both versions agree is "no exposure", whatever is predicted', () => {
    const same = b1(call('ok', { return: "'a'" }), call('ok', { return: "'a'" }));
    const verdict = cometVerdict(
      'B1_BuggyIO',
      { input: 'x', outcome: 'ok', return: "'a'", stdout: '' },
      same,
    );
    expect(verdict.correct).toBe(false);
    expect(verdict.record).toMatchObject({ exposed: false, outcomeMatched: true });
    expect(verdict.record.reason).toMatch(/^no exposure/);
  });
  it('exposes but mispredicts: a class that does not exist, another return, another output', () => {
    expect(
      cometVerdict('B1_BuggyIO', { outcome: 'crash', exception: 'NoSuchError' }, crashes).record,
    ).toMatchObject({ exposed: true, outcomeMatched: false });
    const returns = b1(call('ok', { return: '2', stdout: 'x\n' }), call('ok', { return: '3' }));
    expect(
      cometVerdict('B1_BuggyIO', { outcome: 'ok', return: '2', stdout: '' }, returns).record
        .outcomeMatched,
    ).toBe(false);
    expect(
      cometVerdict('B1_BuggyIO', { outcome: 'ok', return: '2', stdout: 'x\n' }, returns).correct,
    ).toBe(true);
  });
  it('a timeout is predicted by its outcome alone', () => {
    const hangs = b1(call('timeout'), call('ok'));
    expect(cometVerdict('B1_BuggyIO', { outcome: 'timeout' }, hangs).correct).toBe(true);
    expect(cometVerdict('B1_BuggyIO', { outcome: 'TIMEOUT ' }, hangs).correct).toBe(true);
    expect(cometVerdict('B1_BuggyIO', { outcome: 'crash' }, hangs).correct).toBe(false);
  });
  it('a refused input is wrong, with its reason; a reply of any shape is a verdict, never a throw', () => {
    const refused: Verification = { kind: 'B1_BuggyIO', refused: 'bad input: not a literal' };
    expect(cometVerdict('B1_BuggyIO', { outcome: 'ok' }, refused)).toEqual({
      correct: false,
      record: {
        exposed: false,
        outcomeMatched: false,
        reason: 'refused: bad input: not a literal',
      },
    });
    for (const parsed of [null, 7, 'text', [1], { outcome: 3 }])
      expect(cometVerdict('B1_BuggyIO', parsed, crashes).correct).toBe(false);
  });
});

describe('B2: fail-to-pass, with the same verdicts on the respellings', () => {
  const runs = (
    buggy: ReturnType<typeof run>,
    correct: ReturnType<typeof run>,
    respelled?: [ReturnType<typeof run>, ReturnType<typeof run>],
  ): Verification => ({
    kind: 'B2_RegressionTest',
    runs: {
      buggy,
      correct,
      ...(respelled ? { buggy_respelled: respelled[0], correct_respelled: respelled[1] } : {}),
    },
  });
  const reply = {
    precondition: 'p',
    postcondition: 'q',
    explanation: 'r',
    test: 'def test(): pass',
  };
  it('passes a test that fails on the buggy version (past its time too) and passes on the correct one', () => {
    const verdict = cometVerdict(
      'B2_RegressionTest',
      reply,
      runs(run('fail'), run('pass'), [run('fail', 'the test ran past 20s'), run('pass')]),
    );
    expect(verdict).toEqual({
      correct: true,
      record: {
        text: { precondition: 'p', postcondition: 'q', explanation: 'r' },
        verdicts: {
          buggy: 'fail',
          correct: 'pass',
          buggy_respelled: 'fail',
          correct_respelled: 'pass',
        },
      },
    });
  });
  it.each([
    [runs(run('pass'), run('pass')), /^passes on both versions/],
    [runs(run('fail'), run('fail')), /^fails on both versions/],
    [runs(run('pass'), run('fail')), /^passes on the buggy version/],
    [runs(run('error', 'SyntaxError: invalid syntax'), run('error')), /does not run: SyntaxError/],
    [runs(run('fail'), run('pass'), [run('pass'), run('pass')]), /^reads the code/],
    [runs(run('fail'), run('pass')), /^reads the code/],
    // Fail-to-pass in all four runs, but one of them never called the function (the verdict came
    // from something else: the disk, the process's surroundings).
    [
      runs(run('fail'), run('pass'), [run('fail'), run('pass', undefined, false)]),
      /^does not call the function: .*\(correct_respelled\)/,
    ],
    [
      runs(run('fail', undefined, false), run('pass'), [run('fail'), run('pass')]),
      /^does not call the function: .*\(buggy\)/,
    ],
  ])('does not pass %#: %s', (verification, reason) => {
    const verdict = cometVerdict('B2_RegressionTest', reply, verification);
    expect(verdict.correct).toBe(false);
    expect(verdict.record.reason).toMatch(reason);
  });
});

describe('what of a reply is run', () => {
  it('B1 its input, B2 its test file; nothing to run, or too much, is refused before any container', () => {
    expect(replyToRun('B1_BuggyIO', { input: { args: [1] }, outcome: 'ok' })).toEqual({
      reply: { input: { args: [1] } },
    });
    expect(replyToRun('B1_BuggyIO', { outcome: 'ok' })).toEqual({
      refused: 'the reply gives no input',
    });
    expect(replyToRun('B1_BuggyIO', { input: 'x'.repeat(70_000) })).toMatchObject({
      refused: expect.stringMatching(/over 65536 characters/),
    });
    expect(replyToRun('B2_RegressionTest', { test: 'def test_x(): pass' })).toEqual({
      reply: { test: 'def test_x(): pass' },
    });
    expect(replyToRun('B2_RegressionTest', { test: '  ' })).toEqual({
      refused: 'the reply gives no test file',
    });
    expect(replyToRun('B2_RegressionTest', { test: 'x'.repeat(300_000) })).toMatchObject({
      refused: expect.stringMatching(/over 262144 characters/),
    });
  });
});

describe('the sub-scores', () => {
  it('B1 exposure rate and outcome accuracy, and why replies did not pass, by class', () => {
    const summary = summarizeComet([
      { kind: 'B1_BuggyIO', correct: true, comet: { exposed: true, outcomeMatched: true } },
      {
        kind: 'B1_BuggyIO',
        correct: false,
        comet: {
          exposed: true,
          outcomeMatched: false,
          reason: "the buggy version's outcome is ok",
        },
      },
      {
        kind: 'B1_BuggyIO',
        correct: false,
        comet: { exposed: false, outcomeMatched: true, reason: 'no exposure: both …' },
      },
      {
        kind: 'B1_BuggyIO',
        correct: false,
        comet: { exposed: false, outcomeMatched: false, reason: 'refused: bad input' },
      },
      { kind: 'B2_RegressionTest', correct: false, comet: { reason: 'passes on both versions' } },
      { kind: 'W1_Outcome', correct: true },
    ]);
    expect(summary).toEqual({
      B1_BuggyIO: {
        n: 4,
        passed: 1,
        exposed: 2,
        exposureRate: 0.5,
        outcomeMatched: 2,
        outcomeAccuracy: 0.5,
        reasons: { 'no exposure': 1, refused: 1, 'wrong outcome': 1 },
      },
      B2_RegressionTest: { n: 1, passed: 0, reasons: { 'passes on both versions': 1 } },
    });
    expect(summarizeComet([{ kind: 'S1_IntraProceduralCFG', correct: true }])).toBeUndefined();
  });
});
