import { compareRuns } from '../../src/stages/compare/gate.js';
import { renderReport } from '../../src/stages/report/markdown.js';
import { bandOf, COMPLEXITY_BANDS } from '../../src/stages/score/complexity.js';
import { summarize } from '../../src/stages/score/aggregate.js';
import type { Results } from '../../src/contracts/results.js';
import { SIM_POLICY } from '../helpers/gate-sim.js';
import { rec, resultsOf } from '../helpers/records.js';

/** The report of a run with no baseline, under the default policy. */
const report = (results: Results) =>
  renderReport(results, compareRuns(results, undefined, SIM_POLICY));

/** Items' complexity (from their oracles) in the summary and the report: accuracy by band. */
describe('accuracy by complexity band', () => {
  // Easy items right, hard ones mostly wrong: the overall score hides it, the bands show it.
  const records = [
    ...[0.4, 1.2, 2.0, 2.49].map((c, i) => rec(`e${i}`, 'S2_Loops', true, { complexity: c })),
    ...[2.5, 4.99].map((c, i) => rec(`m${i}`, 'S1_IntraProceduralCFG', i === 0, { complexity: c })),
    ...[5, 7.4, 7.5, 10].map((c, i) =>
      rec(`h${i}`, 'M6_InterProceduralCFG', i === 1, { complexity: c }),
    ),
    rec('w', 'W1_Outcome', true), // no complexity: in the kinds, not in the bands
  ];

  it('puts each score in its band, cut points included in the band above', () => {
    expect([0, 2.49, 2.5, 4.99, 5, 7.49, 7.5, 10].map(bandOf)).toEqual([
      'easy',
      'easy',
      'medium',
      'medium',
      'hard',
      'hard',
      'very hard',
      'very hard',
    ]);
    expect(COMPLEXITY_BANDS.map((b) => b.band)).toEqual(['easy', 'medium', 'hard', 'very hard']);
  });

  it('summarises the measured items by band, in band order', () => {
    const summary = summarize(records);
    expect(summary.total).toBe(11);
    expect(Object.keys(summary.byComplexity!)).toEqual(['easy', 'medium', 'hard', 'very hard']);
    expect(summary.byComplexity).toMatchObject({
      easy: { total: 4, correct: 4, accuracy: 1 },
      medium: { total: 2, correct: 1, accuracy: 0.5 },
      hard: { total: 2, correct: 1, accuracy: 0.5 },
      'very hard': { total: 2, correct: 0, accuracy: 0 },
    });
    // A run whose oracles carry no complexity (older tracers, other families) has no bands.
    expect(summarize([rec('w', 'W1_Outcome', true)]).byComplexity).toBeUndefined();
  });

  it("puts fresh variants' complexity beside their originals', over the pairs that carry one", () => {
    const pairs = [
      rec('a', 'S2_Loops', true, { complexity: 2 }),
      rec('a@v3', 'S2_Loops', false, { complexity: 3 }),
      rec('b', 'S2_Loops', true, { complexity: 4 }),
      rec('b@v3', 'S2_Loops', true, { complexity: 6 }),
      rec('c', 'S2_Loops', true, { complexity: 1 }),
      rec('c@v3', 'S2_Loops', true), // no complexity (an older oracle): not a pair here
      rec('d@v3', 'S2_Loops', true, { complexity: 9 }), // no original in the run
    ];
    expect(summarize(pairs).variantComplexity).toEqual({ pairs: 2, original: 3, variant: 4.5 });
    expect(summarize(records).variantComplexity).toBeUndefined();
    const results = resultsOf(pairs, {
      variants: { epoch: 3, mode: 'add', tried: 4, valid: 4, dropped: {} },
    });
    expect(report(results)).toContain(
      "Complexity (0–10, median): variants 4.5 against their originals' 3 (2 pair(s)).",
    );
  });

  it('shows the bands in the report, collapsed', () => {
    const results = resultsOf(records);
    expect(report(results)).toContain(
      [
        '<details><summary>By complexity: 10 item(s) with a measured complexity</summary>',
        '',
        '| complexity (0–10) | items | accuracy |',
        '| --- | ---: | ---: |',
        '| easy (0–2.5) | 4 | 100.0% (4/4) |',
        '| medium (2.5–5) | 2 | 50.0% (1/2) |',
        '| hard (5–7.5) | 2 | 50.0% (1/2) |',
        '| very hard (≥ 7.5) | 2 | 0.0% (0/2) |',
      ].join('\n'),
    );
    expect(report(resultsOf([rec('w', 'W1_Outcome', true)]))).not.toContain('By complexity');
  });
});
