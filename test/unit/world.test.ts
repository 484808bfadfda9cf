import {
  calibration,
  ndcgAt5,
  outcomeMetrics,
  passesWorld,
  replyNumber,
  summarizeWorld,
  worldMeasures,
  type WorldMeasures,
} from '../../src/families/world/score.js';
import { oracleDigest } from '../../src/stages/kinds/digest.js';
import { summarize } from '../../src/stages/score/aggregate.js';
import { passes } from '../../src/stages/score/verdict.js';
import { worldSection } from '../../src/stages/report/world.js';
import { rec, resultsOf } from '../helpers/records.js';
import { agreedResult, type TracerResult } from '../../src/stages/harvest/results.js';
import { topEntries } from '../../src/families/world/agreement.js';

const PROFILE = {
  hot_methods_time: ['pkg.a', 'pkg.b', 'pkg.c', 'pkg.d', 'pkg.e', 'pkg.f'],
  hot_methods_alloc: ['pkg.b'],
  hot_lines_time: ['pkg/m.py:3', 'pkg/m.py:9'],
  hot_lines_alloc: [],
};

describe('the per-instance pass rules', () => {
  it('W1: the outcome exactly, with its exception type (a bare name names its dotted class)', () => {
    const failed = {
      outcome: 'failed',
      exception_type: 'click.exceptions.UsageError',
      failure_line: 12,
    };
    expect(
      passesWorld('W1_Outcome', failed, { outcome: 'failed', exception_type: 'UsageError' }),
    ).toBe(true);
    expect(passesWorld('W1_Outcome', failed, { ...failed, failure_line: 99 })).toBe(true);
    expect(
      passesWorld('W1_Outcome', failed, {
        outcome: 'FAILED ',
        exception_type: 'click.exceptions.UsageError',
      }),
    ).toBe(true);
    expect(passesWorld('W1_Outcome', failed, { outcome: 'failed', exception_type: 'Error' })).toBe(
      false,
    );
    expect(
      passesWorld('W1_Outcome', failed, { outcome: 'failed', exception_type: 'sageError' }),
    ).toBe(false);
    expect(
      passesWorld('W1_Outcome', failed, { outcome: 'error', exception_type: 'UsageError' }),
    ).toBe(false);
    const passed = { outcome: 'passed', exception_type: null, failure_line: null };
    expect(passesWorld('W1_Outcome', passed, { outcome: 'passed', exception_type: null })).toBe(
      true,
    );
    expect(
      passesWorld('W1_Outcome', passed, { outcome: 'passed', exception_type: 'ValueError' }),
    ).toBe(false);
    expect(passesWorld('W1_Outcome', passed, 'passed')).toBe(false);
  });

  it('W2/W3: within the factor, both ways, at the floors; refused numbers fail', () => {
    const t = { wall_ms: 100 };
    expect(passesWorld('W3_WallTime', t, { wall_ms: 200 })).toBe(true);
    expect(passesWorld('W3_WallTime', t, { wall_ms: 50 })).toBe(true);
    expect(passesWorld('W3_WallTime', t, { wall_ms: 201 })).toBe(false);
    expect(passesWorld('W3_WallTime', t, { wall_ms: 49.9 })).toBe(false);
    expect(passesWorld('W3_WallTime', t, { wall_ms: '150' })).toBe(true);
    expect(passesWorld('W3_WallTime', t, { wall_ms: 300 }, 3)).toBe(true);
    // Zeros are floored (0.01 ms, 10 KB): a zero prediction of a 0.015 ms test passes.
    expect(passesWorld('W3_WallTime', { wall_ms: 0.015 }, { wall_ms: 0 })).toBe(true);
    expect(passesWorld('W2_PeakMemory', { peak_bytes: 4000 }, { peak_bytes: 0 })).toBe(true);
    expect(
      passesWorld('W2_PeakMemory', { peak_bytes: 52_428_800 }, { peak_bytes: 30_000_000 }),
    ).toBe(true);
    for (const bad of [
      -5,
      'abc',
      'NaN',
      '1e400',
      Number.POSITIVE_INFINITY,
      null,
      [],
      {},
      true,
      1e308,
    ])
      expect(passesWorld('W3_WallTime', t, { wall_ms: bad })).toBe(false);
    expect(passesWorld('W3_WallTime', t, 'a reply that is not an object')).toBe(false);
  });

  it("W4: every list's true top entry among the predicted top five", () => {
    const predicted = {
      hot_methods_time: ['pkg.x', 'pkg.y', 'pkg.z', 'pkg.w', 'pkg.a'],
      hot_methods_alloc: ['pkg.b'],
      hot_lines_time: ['pkg/m.py:3'],
      hot_lines_alloc: ['anything'],
    };
    expect(passesWorld('W4_Profile', PROFILE, predicted)).toBe(true);
    expect(
      passesWorld('W4_Profile', PROFILE, {
        ...predicted,
        hot_methods_time: ['pkg.x', 'pkg.y', 'pkg.z', 'pkg.w', 'pkg.v', 'pkg.a'],
      }),
    ).toBe(false);
    expect(passesWorld('W4_Profile', PROFILE, { ...predicted, hot_lines_time: 'pkg/m.py:3' })).toBe(
      false,
    );
  });

  it('reads numbers from replies without ever throwing', () => {
    expect(replyNumber(' 1_000 ')).toBe(1000);
    expect(replyNumber('12.5')).toBe(12.5);
    expect(replyNumber('')).toBeUndefined();
    expect(replyNumber('9'.repeat(400))).toBeUndefined();
    expect(replyNumber({ valueOf: () => 3 })).toBeUndefined();
    // Measurements: never negative, never past 10^15 (a 1e308 would move a calibration's mean).
    for (const bad of [1e308, '1e308', -1, '-0.5', 1e16]) expect(replyNumber(bad)).toBeUndefined();
    expect(replyNumber(1e15)).toBe(1e15);
    const truth = { wall_ms: 4 };
    expect(worldMeasures('W3_WallTime', truth, { wall_ms: 1e308 })).toBeUndefined(); // not calibrated
    expect(passesWorld('W3_WallTime', truth, { wall_ms: 1e308 })).toBe(false);
  });
});

describe("the study's metrics, against hand-computed values", () => {
  it('outcome precision, recall and F1 with failure as positive', () => {
    // TP 2, FP 1, FN 1, TN 1.
    const m = outcomeMetrics([
      { failing: true, predictedFailing: true },
      { failing: true, predictedFailing: true },
      { failing: false, predictedFailing: true },
      { failing: true, predictedFailing: false },
      { failing: false, predictedFailing: false },
    ]);
    expect(m).toEqual({ n: 5, precision: 0.6667, recall: 0.6667, f1: 0.6667 });
    // A model that always says "passed": recall 0, precision undefined.
    expect(outcomeMetrics([{ failing: true, predictedFailing: false }])).toEqual({
      n: 1,
      precision: null,
      recall: 0,
      f1: null,
    });
  });

  it('log10 calibration: slope, bias and MAE', () => {
    // Truths 10, 100, 1000 ms, predictions 100, 10^4, 10^5: x = 1, 2, 3; y = 2, 4, 5.
    // slope = Sxy / Sxx = (1·5/3 + 0 + 1·4/3) / 2 = 1.5; bias = MAE = (1 + 2 + 2) / 3.
    const points = [
      [10, 100],
      [100, 10_000],
      [1000, 100_000],
    ].map(([t, p]) => worldMeasures('W3_WallTime', { wall_ms: t }, { wall_ms: p })!.log10!);
    expect(calibration(points)).toEqual({ n: 3, slope: 1.5, bias: 1.6667, mae: 1.6667 });
    // A zero prediction is floored to 0.01 ms: log10 = -2.
    expect(worldMeasures('W3_WallTime', { wall_ms: 1 }, { wall_ms: 0 })!.log10).toEqual({
      truth: 0,
      predicted: -2,
    });
    expect(worldMeasures('W2_PeakMemory', { peak_bytes: 1e6 }, { peak_bytes: 0 })!.log10).toEqual({
      truth: 6,
      predicted: 4,
    });
    expect(calibration([{ truth: 1, predicted: 1 }]).slope).toBeNull();
  });

  it('NDCG@5 and Recall@5', () => {
    const truth = ['a', 'b', 'c', 'd', 'e'];
    // Relevance 5..1; gains 2^rel - 1: a 31, b 15, c 7, d 3, e 1.
    // DCG([b, a, x]) = 15/1 + 31/log2(3) = 34.5589; IDCG = 31 + 15/log2(3) + 7/2 + 3/log2(5) + 1/log2(6) = 45.6429.
    expect(ndcgAt5(truth, ['b', 'a', 'x'])).toBeCloseTo(34.5589 / 45.6429, 4);
    expect(ndcgAt5(truth, truth)).toBe(1);
    expect(ndcgAt5(truth, [])).toBe(0);
    const m = worldMeasures(
      'W4_Profile',
      { ...PROFILE, hot_methods_time: truth },
      {
        hot_methods_time: ['b', 'a', 'x', 'y', 'z', 'c'],
        hot_methods_alloc: [],
        hot_lines_time: ['pkg/m.py:3'],
        hot_lines_alloc: [],
      },
      { functions: ['a', 'b', 'c', 'x'], lines: ['pkg/m.py:3'] },
    )!;
    expect(m.ranked!.hot_methods_time!.recall5).toBe(0.4); // b and a of the true five
    expect(m.ranked!.hot_methods_alloc!.recall5).toBe(0);
    // Predicted b, a, x, y, z, c: b, a, x, c ran.
    expect(m.ranked!.hot_methods_time!).toMatchObject({ predicted: 6, ran: 4 });
  });

  it('execution rate: the share of predicted names that ran (not an error when they did not)', () => {
    const measures = worldMeasures(
      'W4_Profile',
      PROFILE,
      {
        hot_methods_time: ['pkg.a', 'pkg.never', 'pkg.ghost'],
        hot_methods_alloc: ['pkg.b'],
        hot_lines_time: [],
        hot_lines_alloc: ['pkg/m.py:3'],
      },
      { functions: ['pkg.a', 'pkg.b'], lines: ['pkg/m.py:3', 'pkg/m.py:9'] },
    );
    const summary = summarizeWorld([{ kind: 'W4_Profile', measures }])!;
    expect(summary.profile!.executionRate).toBe(0.6); // 3 of 5
  });

  it('an echo of every oracle: F1 = 1, MAE = 0, NDCG@5 = 1, every instance passes', () => {
    const oracles: [Parameters<typeof passesWorld>[0], unknown][] = [
      ['W1_Outcome', { outcome: 'failed', exception_type: 'AssertionError', failure_line: 3 }],
      ['W1_Outcome', { outcome: 'passed', exception_type: null, failure_line: null }],
      ['W2_PeakMemory', { peak_bytes: 52_428_800 }],
      ['W3_WallTime', { wall_ms: 50.2 }],
      ['W3_WallTime', { wall_ms: 5.1 }],
      ['W4_Profile', PROFILE],
    ];
    const items: { kind: string; measures?: WorldMeasures }[] = [];
    for (const [kind, oracle] of oracles) {
      expect(passesWorld(kind, oracle, oracle)).toBe(true);
      items.push({
        kind,
        measures: worldMeasures(kind, oracle, oracle, {
          functions: PROFILE.hot_methods_time,
          lines: PROFILE.hot_lines_time,
        }),
      });
    }
    const s = summarizeWorld(items)!;
    expect(s.outcome).toEqual({ n: 2, precision: 1, recall: 1, f1: 1 });
    expect(s.time).toMatchObject({ n: 2, slope: 1, bias: 0, mae: 0 });
    expect(s.memory).toMatchObject({ n: 1, bias: 0, mae: 0 });
    expect(Object.values(s.profile!.ndcg5).every((v) => v === 1)).toBe(true);
    expect(Object.values(s.profile!.recall5).every((v) => v === 1)).toBe(true);
    expect(s.profile!.executionRate).toBe(1);
  });
});

describe('pairing measured oracles across harvests', () => {
  const oracle = (question_kind: string, oracle_answer: unknown) =>
    ({ question_kind, question: 'q', template_answer: {}, oracle_answer }) as Parameters<
      typeof oracleDigest
    >[0];

  it('a re-measured peak or wall time pairs; a profile pairs while its top entries stay', () => {
    expect(oracleDigest(oracle('W3_WallTime', { wall_ms: 41.6 }))).toBe(
      oracleDigest(oracle('W3_WallTime', { wall_ms: 43.2 })),
    );
    expect(oracleDigest(oracle('W2_PeakMemory', { peak_bytes: 1 }))).toBe(
      oracleDigest(oracle('W2_PeakMemory', { peak_bytes: 2 })),
    );
    const profile = (tail: string, top = 'pkg.a') =>
      oracle('W4_Profile', { ...PROFILE, hot_methods_time: [top, tail] });
    expect(oracleDigest(profile('pkg.x'))).toBe(oracleDigest(profile('pkg.y')));
    expect(oracleDigest(profile('pkg.x'))).not.toBe(oracleDigest(profile('pkg.x', 'pkg.b')));
  });

  it('an outcome, like every traced answer, pairs only when equal', () => {
    const passed = { outcome: 'passed', exception_type: null, failure_line: null };
    expect(oracleDigest(oracle('W1_Outcome', passed))).not.toBe(
      oracleDigest(oracle('W1_Outcome', { ...passed, outcome: 'failed' })),
    );
    expect(oracleDigest(oracle('S2_Loops', { loop_iteration_count: 1 }))).not.toBe(
      oracleDigest(oracle('S2_Loops', { loop_iteration_count: 2 })),
    );
  });
});

describe('two harvests of a profile', () => {
  /** One harvest's W4 result line as the tracer writes it. */
  const harvest = (answer: typeof PROFILE, nearTop: Record<string, string[]>): TracerResult =>
    ({
      tracegate_result: 1,
      id: 'w4',
      status: 'ok',
      answer,
      question: 'q',
      template_answer: null,
      python: '3.11',
      tracer_version: 't',
      measurement: { scope: 'pkg', near_top: nearTop },
    }) as unknown as TracerResult;
  const swapped = { ...PROFILE, hot_methods_time: ['pkg.b', 'pkg.a', 'pkg.c'] };
  const near = { hot_methods_time: ['pkg.a', 'pkg.b'] };

  it('agree on the same leaders, and the oracle names no ties', () => {
    const agreed = agreedResult(
      [harvest(PROFILE, near), harvest(PROFILE, {})],
      () => {},
      'W4_Profile',
    );
    expect(agreed).toMatchObject({ status: 'ok', runs_agreed: 2, answer: PROFILE });
  });

  it('whose leaders swapped, each near the top of the other, agree on both as the tops', () => {
    const agreed = agreedResult(
      [harvest(PROFILE, near), harvest(swapped, near)],
      () => {},
      'W4_Profile',
    ) as TracerResult;
    expect(agreed.status).toBe('ok');
    const answer = agreed.answer as Record<string, unknown>;
    expect(answer.tied_tops).toEqual({ hot_methods_time: ['pkg.a', 'pkg.b'] });
    expect(answer.hot_methods_time).toEqual(PROFILE.hot_methods_time); // the first harvest's ranking
    expect(topEntries(answer).hot_methods_time).toEqual(['pkg.a', 'pkg.b']);
    // The pass rule asks for every tied top in the predicted top five.
    const rest = {
      hot_methods_alloc: ['pkg.b'],
      hot_lines_time: ['pkg/m.py:3'],
      hot_lines_alloc: [],
    };
    expect(
      passesWorld('W4_Profile', answer, { ...rest, hot_methods_time: ['pkg.b', 'pkg.a'] }),
    ).toBe(true);
    expect(
      passesWorld('W4_Profile', answer, { ...rest, hot_methods_time: ['pkg.a', 'pkg.c'] }),
    ).toBe(false);
    expect(
      passesWorld('W4_Profile', PROFILE, { ...rest, hot_methods_time: ['pkg.a', 'pkg.c'] }),
    ).toBe(true);
  });

  it("whose leaders differ, one far from the other harvest's top, disagree", () => {
    const kept: unknown[] = [];
    const agreed = agreedResult(
      [harvest(PROFILE, near), harvest(swapped, { hot_methods_time: ['pkg.b'] })],
      (runs) => kept.push(...runs),
      'W4_Profile',
    ) as TracerResult;
    expect(agreed.status).toBe('invalid');
    expect(agreed.reason).toMatch(/^nondeterministic: /);
    expect(kept).toHaveLength(2);
    // A run without near_top (an older tracer) never explains a swap either.
    expect(
      agreedResult([harvest(PROFILE, {}), harvest(swapped, {})], () => {}, 'W4_Profile')?.valueOf(),
    ).toMatchObject({ status: 'invalid' });
  });
});

describe('every metric counts the items without a usable answer', () => {
  const FAILED = { outcome: 'failed', exception_type: 'AssertionError', failure_line: 7 };
  const PASSED = { outcome: 'passed', exception_type: null, failure_line: null };
  /** A W1 record as the query stage writes it: measures only when the reply parsed. */
  const w1 = (id: string, oracle: unknown, parsed: unknown) =>
    rec(id, 'W1_Outcome', parsed !== undefined && passes('W1_Outcome', oracle, parsed), {
      oracle,
      ...(parsed === undefined
        ? { error: 'no_json' as const }
        : {
            parsed,
            world: worldMeasures('W1_Outcome', oracle, parsed) as Record<string, unknown>,
          }),
    });

  // 17 items, 10 failing and 7 passing tests. Every parsed reply is right (11), the
  // other 6 (3 failing, 3 passing) did not parse: 88% in the baseline, 65% now.
  const records = [
    ...Array.from({ length: 10 }, (_, i) => w1(`f${i}`, FAILED, i < 7 ? FAILED : undefined)),
    ...Array.from({ length: 7 }, (_, i) => w1(`p${i}`, PASSED, i < 4 ? PASSED : undefined)),
  ];

  it('W1: an unparsed reply is the wrong class, so precision and recall fall with the pass rate', () => {
    const summary = summarize(records);
    expect(summary.byKind.W1_Outcome).toMatchObject({ correct: 11, total: 17, accuracy: 0.6471 });
    // Answered items alone would give 1.00 / 1.00. Counted: TP 7, FN 3 (failing, unparsed),
    // FP 3 (passing, unparsed: the class it is not), TN 4.
    expect(summary.world?.outcome).toEqual({
      n: 17,
      precision: 0.7,
      recall: 0.7,
      f1: 0.7,
      unanswered: 6,
    });
    expect(worldSection(resultsOf(records)).join('\n')).toContain(
      '| W1 outcome (failure positive) | 17 | precision 0.70, recall 0.70, F1 0.70; ' +
        '6 unanswered, counted as the wrong class |',
    );
  });

  it('W2/W3 say how many had no number; W4 scores an unanswered profile as empty lists', () => {
    const s = summarizeWorld([
      {
        kind: 'W3_WallTime',
        measures: worldMeasures('W3_WallTime', { wall_ms: 10 }, { wall_ms: 10 }),
      },
      { kind: 'W3_WallTime', oracle: { wall_ms: 10 } },
      { kind: 'W2_PeakMemory', oracle: { peak_bytes: 1e6 } },
      {
        kind: 'W4_Profile',
        measures: worldMeasures('W4_Profile', PROFILE, PROFILE, {
          functions: PROFILE.hot_methods_time,
          lines: PROFILE.hot_lines_time,
        }),
      },
      { kind: 'W4_Profile', oracle: PROFILE },
    ])!;
    expect(s.time).toMatchObject({ n: 1, mae: 0, unanswered: 1 });
    expect(s.memory).toMatchObject({ n: 0, unanswered: 1 });
    expect(s.profile).toMatchObject({ n: 2, unanswered: 1 });
    // One perfect list and one empty: NDCG@5 and Recall@5 halve (hot_lines_alloc has no truth: 1 both).
    expect(s.profile!.ndcg5.hot_methods_time).toBe(0.5);
    expect(s.profile!.recall5.hot_methods_time).toBe(0.5);
    expect(s.profile!.ndcg5.hot_lines_alloc).toBe(1);
    expect(s.profile!.executionRate).toBe(1);
  });
});
