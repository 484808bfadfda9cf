import { simulate, type Scenario } from '../helpers/gate-sim.js';

/**
 * The gate's claims, by seeded simulation (test/helpers/gate-sim.ts states the
 * model; docs/gate.md has the full table from scripts/bench-gate.mjs). A few
 * hundred replicates each, so the whole file costs well under a second of CPU;
 * each bound allows two binomial standard errors of noise around the claim, so
 * a gate that really missed it (a false-fail rate of 8%, power of 70%) fails here.
 */
const R = 200;
const slack = (p: number) => 2 * Math.sqrt((p * (1 - p)) / R);
const at = (s: Scenario, seed: number, replicates = R) => simulate(s, replicates, seed);

describe('the gate by simulation (200 items over 7 kinds, clusters of 4 unless said)', () => {
  const aa = at({ items: 200, model: 'independent', drop: 0 }, 1);

  it('A/A, independent noise: fail ≤ 5%', () => {
    expect(aa.fail).toBeLessThanOrEqual(0.05 + slack(0.05));
  });

  it('A/A, neighbouring checkpoint: pass ≥ 90%', () => {
    expect(at({ items: 200, model: 'neighbouring', drop: 0 }, 2).pass).toBeGreaterThanOrEqual(
      0.9 - slack(0.1),
    );
  });

  it('a 10-point drop on 200 items, neighbouring checkpoint: fail ≥ 80%', () => {
    expect(at({ items: 200, model: 'neighbouring', drop: 0.1 }, 3).fail).toBeGreaterThanOrEqual(
      0.8 - slack(0.2),
    );
  });

  it('a 5-point drop on 1000 items, neighbouring checkpoint: fail ≥ 80%', () => {
    expect(
      at({ items: 1000, model: 'neighbouring', drop: 0.05 }, 4, 80).fail,
    ).toBeGreaterThanOrEqual(0.8 - 2 * Math.sqrt((0.8 * 0.2) / 80));
  });

  it('top-up: A/A false-fail still ≤ 5% across both looks, and fewer inconclusive', () => {
    // Same seed, same first looks: the top-up only acts where the first look was inconclusive.
    const withTopUp = at({ items: 200, model: 'independent', drop: 0, topUp: 200 }, 1);
    expect(withTopUp.fail).toBeLessThanOrEqual(0.05 + slack(0.05));
    expect(withTopUp.toppedUp).toBeGreaterThan(0.5);
    expect(withTopUp.inconclusive).toBeLessThan(aa.inconclusive);
  });
});
