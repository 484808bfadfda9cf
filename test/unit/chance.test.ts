import { chanceLevel, chanceLevels } from '../../src/stages/score/chance.js';
import { summarize } from '../../src/stages/score/aggregate.js';
import { resultsSchema } from '../../src/contracts/results.js';
import { rec, resultsOf } from '../helpers/records.js';

describe('the chance level: the best constant answer under the real pass rule', () => {
  it('a categorical kind: the majority class', () => {
    const outcomes = ['passed', 'failed', 'passed', 'passed', 'error'].map((outcome) => ({
      outcome,
      exception_type: outcome === 'passed' ? null : 'ValueError',
      failure_line: outcome === 'passed' ? null : 4,
    }));
    expect(chanceLevel('W1_Outcome', outcomes)).toEqual({
      answer: outcomes[0],
      correct: 3,
      total: 5,
      accuracy: 0.6,
    });
  });

  it('a structured kind: the modal answer scores 3 of 5, by the scorer that scored the run', () => {
    const a = { iterations: 3, exits: ['break'] };
    const b = { iterations: 4, exits: ['break'] };
    const c = { iterations: 3, exits: [] };
    expect(chanceLevel('S2_Loops', [b, a, c, a, a])).toMatchObject({
      answer: a,
      correct: 3,
      total: 5,
    });
    // The strict scorer keeps booleans apart from numbers; SWE-Flux's takes true for 1.
    const flags = [{ n: 1 }, { n: 1 }, { n: true }, { n: true }, { n: true }];
    expect(chanceLevel('S3_ProgramState', flags)).toMatchObject({
      answer: { n: true },
      correct: 3,
    });
    expect(chanceLevel('S3_ProgramState', flags, { scoring: 'swe-flux' })).toMatchObject({
      correct: 5,
    });
  });

  it('a measured number within a factor: one constant covers items its own numbers cannot', () => {
    // 40 and 150 ms are 3.75× apart: neither passes the other within 2×, but 80 passes both.
    const two = [{ wall_ms: 40 }, { wall_ms: 150 }];
    const best = chanceLevel('W3_WallTime', two)!;
    expect(best.correct).toBe(2);
    expect((best.answer as { wall_ms: number }).wall_ms).toBeCloseTo(80, 6);
    // 100 covers 180 (1.8×) but not 1000: two of three.
    expect(
      chanceLevel('W3_WallTime', [{ wall_ms: 100 }, { wall_ms: 180 }, { wall_ms: 1000 }]),
    ).toMatchObject({ correct: 2, total: 3 });
    // A wider factor is another rule: one constant covers all three.
    expect(
      chanceLevel('W3_WallTime', [{ wall_ms: 100 }, { wall_ms: 180 }, { wall_ms: 1000 }], {
        worldFactor: 4,
      }),
    ).toMatchObject({ correct: 3 });
  });

  it('a profile: the most frequent top entries of each list, together', () => {
    const profile = (time: string, alloc: string) => ({
      hot_methods_time: [time, 'x'],
      hot_methods_alloc: [alloc],
      hot_lines_time: [],
      hot_lines_alloc: [],
    });
    // No oracle answer passes more than two, the five most frequent tops of each list pass all four.
    const oracles = [profile('a', 'p'), profile('a', 'q'), profile('b', 'p'), profile('c', 'r')];
    expect(chanceLevel('W4_Profile', oracles)).toMatchObject({ correct: 4, total: 4 });
  });

  it('per kind over the scored records with an oracle; none without any', () => {
    const records = [
      rec('l1', 'S2_Loops', true, { oracle: { iterations: 2 } }),
      rec('l2', 'S2_Loops', false, { oracle: { iterations: 2 } }),
      rec('l3', 'S2_Loops', false, { oracle: { iterations: 5 } }),
      { ...rec('l4', 'S2_Loops', false, { oracle: { iterations: 5 } }), scored: false },
      rec('e1', 'S5_Exceptions', true),
    ];
    const levels = chanceLevels(records);
    expect(Object.keys(levels)).toEqual(['S2_Loops']);
    expect(levels.S2_Loops).toMatchObject({ correct: 2, total: 3, accuracy: 0.6667 });
    // In results.json as each kind's `chance`, read back by the schema.
    const results = resultsSchema.parse(JSON.parse(JSON.stringify(resultsOf(records))));
    expect(results.summary.byKind.S2_Loops?.chance).toEqual({
      answer: { iterations: 2 },
      correct: 2,
      total: 3,
      accuracy: 0.6667,
    });
    expect(summarize(records).byKind.S5_Exceptions?.chance).toBeUndefined();
  });

  it('on a kind of very many distinct answers, tries the most frequent first', () => {
    // 600 distinct answers (more than the comparisons allow in full) and one given thrice.
    const oracles = [
      ...Array.from({ length: 600 }, (_, i) => ({ iterations: i + 10 })),
      ...Array.from({ length: 3 }, () => ({ iterations: 7 })),
    ];
    expect(chanceLevel('S2_Loops', oracles)).toEqual({
      answer: { iterations: 7 },
      correct: 3,
      total: 603,
      accuracy: 0.005,
    });
  });
});
