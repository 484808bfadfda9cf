import {
  bounds,
  pairedDifference,
  pDrop,
  pGain,
  itemsToSignificance,
  planning,
} from '../../src/stages/compare/paired.js';
import { chooseTopUp, plannedLooks } from '../../src/stages/compare/sequential.js';
import {
  holm,
  normalCdf,
  normalQuantile,
  regularizedBeta,
  studentTCdf,
  studentTQuantile,
} from '../../src/stages/compare/stats.js';

/** A paired item from its change: −1 a loss, +1 a gain, 0 a tie (both right). */
const item = (cluster: string, d: -1 | 0 | 1) => ({
  cluster,
  baseline: d < 0 || d === 0 ? 1 : 0,
  candidate: d > 0 || d === 0 ? 1 : 0,
});

describe('distributions (against published table values)', () => {
  it('normal CDF and quantile', () => {
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    expect(normalCdf(-5)).toBeCloseTo(2.866515718791939e-7, 18);
    expect(normalQuantile(0.95)).toBeCloseTo(1.6448536269514722, 10);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 10);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 9);
  });

  it('Student t: CDF, quantiles, and the closed form at 2 degrees of freedom', () => {
    expect(regularizedBeta(0.5, 2, 3)).toBeCloseTo(11 / 16, 12);
    expect(studentTQuantile(0.95, 4)).toBeCloseTo(2.131846786, 8);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138852, 8);
    expect(studentTQuantile(0.95, 1)).toBeCloseTo(6.313751515, 8);
    expect(studentTQuantile(0.05, 30)).toBeCloseTo(-1.697260887, 8);
    // T₂(t) = ½ + t / (2·√(2 + t²))
    for (const t of [-3, -0.7, 0.4, 2.5])
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
  });
});

describe('the clustered paired difference (hand-computed, docs/gate.md)', () => {
  // 10 singletons: 3 losses, 1 gain, 6 ties.
  const singles = [
    item('a', -1),
    item('b', -1),
    item('c', -1),
    item('d', 1),
    ...['e', 'f', 'g', 'h', 'i', 'j'].map((c) => item(c, 0)),
  ];

  it('without clustering it is Agresti–Min with the CR1 factor', () => {
    const e = pairedDifference(singles);
    expect(e).toMatchObject({ n: 10, clusters: 10, lost: 3, gained: 1, df: 9 });
    expect(e.baseline).toBeCloseTo(0.9, 12);
    expect(e.candidate).toBeCloseTo(0.7, 12);
    expect(e.delta).toBeCloseTo(-0.2, 12);
    // centre = Σd/(n+2) = −2/12; S = (b'+c') − (c'−b')²/n' = 5 − 4/12 = 14/3;
    // Var = 10/9 · (14/3) / 12² = 140/3888.
    expect(e.centre).toBeCloseTo(-1 / 6, 12);
    expect(e.se).toBeCloseTo(Math.sqrt(140 / 3888), 12);
    // lower = −1/6 − t₀.₉₅,₉ · se = −1/6 − 1.833113 · 0.189758
    expect(bounds(e, 0.05).lower).toBeCloseTo(-1 / 6 - 1.8331129327 * Math.sqrt(140 / 3888), 8);
    expect(pDrop(e) + pGain(e)).toBeCloseTo(1, 12);
  });

  it('clusters: the residuals are summed per cluster before squaring', () => {
    // g1: −1, −1; g2: 0, +1; g3: 0, 0, −1 → Σd = −2, centre = −2/9,
    // S = (−2 + 4/9)² + (1 + 4/9)² + (−1 + 6/9)² + 1 + 2·(2/9)² = 463/81,
    // Var = 3/2 · (463/81) / 9² = 1389/13122; df = 2.
    const items = [
      item('g1', -1),
      item('g1', -1),
      item('g2', 0),
      item('g2', 1),
      item('g3', 0),
      item('g3', 0),
      item('g3', -1),
    ];
    const e = pairedDifference(items);
    expect(e).toMatchObject({ n: 7, clusters: 3, df: 2 });
    expect(e.se).toBeCloseTo(Math.sqrt(1389 / 13122), 12);
    // the paired test at 2 df, by T₂'s closed form
    const t = -2 / 9 / Math.sqrt(1389 / 13122);
    expect(pDrop(e)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
    // t₀.₉₅,₂ = 2.919986
    expect(bounds(e, 0.05).lower).toBeCloseTo(-2 / 9 - 2.9199855804 * e.se, 8);
    // The same items unclustered: a smaller error (the losses of g1 moved together).
    expect(pairedDifference(items.map((x, i) => ({ ...x, cluster: `i${i}` }))).se).toBeLessThan(
      e.se,
    );
  });

  it('no discordance never yields a zero error (the pseudo-cells)', () => {
    const e = pairedDifference(['a', 'b', 'c', 'd', 'e'].map((c) => item(c, 0)));
    // S = 1, Var = 5/4 · 1 / 7²
    expect(e.se).toBeCloseTo(Math.sqrt(5 / 4) / 7, 12);
    expect(bounds(e, 0.05).lower).toBeLessThan(-0.05);
  });

  it('states power: the MDE and the items needed at the observed discordance', () => {
    const e = pairedDifference(singles);
    const z = 1.6448536269514722 + 0.8416212335729143;
    const { mde, needed } = planning(e, 0.05, 0.05);
    expect(mde).toBeCloseTo(z * e.se, 9);
    // n = ⌈(z·σ/m)²⌉ with σ = se·√10: ⌈890.49⌉ = 891, minus the 10 held.
    expect(needed).toBe(881);
  });

  it('sizes a large move on too few items: the items at which the gate would call it', () => {
    const e = pairedDifference(singles);
    // σ = √(n·se²) = √(10 · 140/3888) = 0.600069; the smallest m with
    // |Δ|·m/(m+2) ≥ t₁₋α,m−1 · σ/√m (each item its own cluster), checked against scipy:
    // m = 29: 0.187097 < 1.701131 · 0.111430 = 0.189557; m = 30: 0.1875 ≥ 1.699127 · 0.109557 = 0.186151.
    expect(itemsToSignificance(e, e.delta, 0.05)).toBe(30);
    // At α/3 (Holm's strictest step over three rows), and half the change.
    expect(itemsToSignificance(e, e.delta, 0.05 / 3)).toBe(48);
    expect(itemsToSignificance(e, e.delta / 2, 0.05)).toBe(104);
    expect(itemsToSignificance({ n: 1, se: Infinity, clusters: 1 }, -0.5, 0.05)).toBeUndefined();
  });
});

describe('multiplicity and the sequential rule', () => {
  it('Holm step-down', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.2, 0.001])).toEqual([0.2, 0.002]);
  });

  it('one look at α without top-up; Pocock-type spending over two looks with it', () => {
    expect(plannedLooks(0.05, 200, 0)).toEqual([{ index: 1, of: 1, alpha: 0.05 }]);
    const [first, second] = plannedLooks(0.05, 200, 200);
    // t = ½: α₁ = 0.05 · ln(1 + (e − 1)/2) = 0.0310057; α₂ = 0.05 − α₁
    expect(first.alpha).toBeCloseTo(0.05 * Math.log(1 + (Math.E - 1) / 2), 12);
    expect(first.alpha).toBeCloseTo(0.0310057, 6);
    expect(second!.alpha).toBeCloseTo(0.05 - first.alpha, 12);
    expect(first.alpha + second!.alpha).toBeCloseTo(0.05, 12);
    // More planned items spend less at the first look.
    expect(plannedLooks(0.05, 100, 300)[0].alpha).toBeLessThan(first.alpha);
  });

  it('top-up draws the baseline-scored items in a seeded order both runs agree on', () => {
    const pool = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ instance: { id } }));
    const scored = new Set(['a', 'b', 'c', 'e', 'f']);
    const picked = chooseTopUp(pool, scored, 7, 3).map((p) => p.instance.id);
    expect(picked).toHaveLength(3);
    expect(picked).not.toContain('d');
    expect(chooseTopUp([...pool].reverse(), scored, 7, 3).map((p) => p.instance.id)).toEqual(
      picked,
    );
    expect(chooseTopUp(pool, scored, 7, 10)).toHaveLength(5);
  });
});
