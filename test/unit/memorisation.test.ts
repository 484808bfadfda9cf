import { memorisationOf } from '../../src/stages/compare/memorisation.js';
import type { InstanceRecord } from '../../src/contracts/results.js';
import { record, SIM_POLICY } from '../helpers/gate-sim.js';
import { simulateMemorisation } from '../helpers/memorisation-sim.js';

/** An original `i` and its variant, in clusters of 3, right or wrong as said. */
function pairs(n: number, original: (i: number) => boolean, variant: (i: number) => boolean) {
  return Array.from({ length: n }, (_, i): InstanceRecord[] => {
    const o = record(i, 7, Math.floor(i / 3), original(i));
    return [o, { ...record(i, 7, Math.floor(i / 3), variant(i)), id: `${o.id}@v202649` }];
  }).flat();
}

describe('the memorisation signal', () => {
  it('flags a model that answers the originals and gives the variants their originals’ answers', () => {
    const m = memorisationOf(
      pairs(
        30,
        () => true,
        () => false,
      ),
      SIM_POLICY,
    )!;
    expect(m).toMatchObject({ pairs: 30, clusters: 10, original: 1, variant: 0, difference: 1 });
    expect(m.flagged).toBe(true);
    expect(m.lower!).toBeGreaterThan(0.5);
    expect(m.byKind.S1_IntraProceduralCFG).toMatchObject({ pairs: 5, flagged: false }); // too few to test
  });

  it('does not flag the echo endpoint (every original and variant right), nor a model better on fresh items', () => {
    expect(
      memorisationOf(
        pairs(
          30,
          () => true,
          () => true,
        ),
        SIM_POLICY,
      )!.flagged,
    ).toBe(false);
    const better = memorisationOf(
      pairs(
        30,
        () => false,
        () => true,
      ),
      SIM_POLICY,
    )!;
    expect(better.difference).toBe(-1);
    expect(better.flagged).toBe(false);
  });

  it('pairs only an original and its own variant, both answered by the model', () => {
    const records = pairs(
      12,
      () => true,
      () => false,
    );
    records[1] = { ...records[1]!, scored: false, correct: false, error: 'harvest_invalid' };
    records.push({ ...record(99, 7, 99, true), id: 'alone@v1' }); // no original in this run
    expect(memorisationOf(records, SIM_POLICY)!.pairs).toBe(11);
    expect(
      memorisationOf(
        pairs(
          3,
          () => true,
          () => true,
        ).filter((r) => !r.id.includes('@')),
        SIM_POLICY,
      ),
    ).toBeUndefined();
  });

  it('by seeded simulation: under 5% false flags for honest models, and a memorised third is found', () => {
    const aa = simulateMemorisation({ pairs: 100, model: 'aa' }, 300, 20261202);
    expect(aa.flagged).toBeLessThanOrEqual(0.07); // 5% ± 1.3 points of Monte Carlo error
    const memorised = simulateMemorisation(
      { pairs: 100, model: 'memorised', memorised: 1 / 3 },
      200,
      20261202,
    );
    expect(memorised.flagged).toBeGreaterThan(0.8);
    expect(simulateMemorisation({ pairs: 40, model: 'recall-only' }, 50, 1).flagged).toBe(1);
  });
});
