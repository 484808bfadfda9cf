import { compareRuns, type GatePolicy } from '../../src/stages/compare/gate.js';
import type { InstanceRecord } from '../../src/contracts/results.js';
import { PROVENANCE, rec, recs, resultsOf } from '../helpers/records.js';

const policy: GatePolicy = {
  minDrop: 0.05,
  minGain: 0.05,
  alpha: 0.05,
  clusterBy: 'test',
  gate: 'overall',
  maxExcluded: 0.05,
  minItems: 10,
  minClusters: 5,
};

const base = (records: InstanceRecord[]) => ({
  results: resultsOf(records),
  source: 'file base.json',
});
const run = (records: InstanceRecord[]) => resultsOf(records);

/** `n` items of a kind, the first `right` answered right; `flip` ids turned to the other answer. */
function kindRun(
  kind: InstanceRecord['kind'],
  prefix: string,
  n: number,
  right: number,
  flip: (i: number) => boolean = () => false,
): InstanceRecord[] {
  const pattern = Array.from({ length: n }, (_, i) => (i < right !== flip(i) ? '1' : '0')).join('');
  return recs(kind, pattern, prefix, 2);
}

const KINDS = ['S1_IntraProceduralCFG', 'S2_Loops', 'S3_ProgramState'] as const;

describe('the gate: verdicts that mean something', () => {
  it('fails a real drop: 300 items, 16 points lost in every kind', () => {
    const baseline = KINDS.flatMap((k, j) => kindRun(k, `k${j}-`, 100, 60));
    // 18 of the 60 right answers lost, 2 of the 40 wrong ones gained, per kind.
    const candidate = KINDS.flatMap((k, j) =>
      kindRun(k, `k${j}-`, 100, 60, (i) => i < 18 || (i >= 60 && i < 62)),
    );
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.verdict).toBe('fail');
    expect(c.overall).toMatchObject({ paired: 300, clusters: 150, lost: 54, gained: 6 });
    expect(c.overall!.delta).toBeCloseTo(-0.16, 12);
    expect(c.overall!.status).toBe('regressed');
    expect(c.kinds.map((k) => k.status)).toEqual(['regressed', 'regressed', 'regressed']);
    expect(c.overall!.test!.pDropAdjusted).toBeLessThan(0.05);
    expect(c.summary).toMatch(
      /^Significant drop, 5\.0 pp or more as observed: overall −16\.0 pp \(p < 0\.0001 Holm; at least 10\.2 pp at the 95% bound\)/,
    );
  });

  it('passes when the interval rules out a drop of min-drop', () => {
    const baseline = KINDS.flatMap((k, j) => kindRun(k, `k${j}-`, 100, 60));
    // 3 lost and 3 gained per kind: discordant, no net change.
    const candidate = KINDS.flatMap((k, j) =>
      kindRun(k, `k${j}-`, 100, 60, (i) => i < 3 || (i >= 60 && i < 63)),
    );
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.verdict).toBe('pass');
    expect(c.overall!.delta).toBe(0);
    expect(c.overall!.test!.lower).toBeGreaterThan(-0.05);
    expect(c.overall!.test!.lower).toBeLessThan(-0.01);
    expect(c.kinds.every((k) => k.status === 'within noise')).toBe(true);
    expect(c.summary).toMatch(/^No drop of 5\.0 pp or more: overall ±0\.0 pp on 300 paired items/);
  });

  it('calls a small sample inconclusive and says how many items would decide', () => {
    const baseline = kindRun('S2_Loops', 'l', 40, 24);
    const candidate = kindRun('S2_Loops', 'l', 40, 24, (i) => i < 3 || i === 30);
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(['drop not excluded']);
    expect(c.overall!.status).toBe('within noise');
    const needed = c.overall!.test!.needed;
    expect(needed).toBeGreaterThan(40);
    expect(c.summary).toContain(`About ${needed} more paired items would decide`);
  });

  it('reports an improvement that is significant and at least min-gain', () => {
    const baseline = kindRun('S5_Exceptions', 'e', 100, 40);
    const candidate = kindRun('S5_Exceptions', 'e', 100, 40, (i) => i >= 40 && i < 70);
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.verdict).toBe('pass');
    expect(c.kinds[0]).toMatchObject({ kind: 'S5_Exceptions', status: 'improved', gained: 30 });
  });

  it('says no-baseline without one', () => {
    const c = compareRuns(run(recs('S2_Loops', '1', 'i')), undefined, policy);
    expect(c.verdict).toBe('no-baseline');
    expect(c.summary).toMatch(/No baseline/);
  });

  it('uses the look it is given: bounds and Holm at α₁ on a first look', () => {
    const records = kindRun('S2_Loops', 'l', 100, 50);
    const look = { index: 1, of: 2, alpha: 0.031 };
    const c = compareRuns(run(records), base(records), policy, look);
    expect(c.look).toEqual(look);
    const t = c.overall!.test!;
    // t quantile at 1 − 0.031 with 49 df exceeds the one at 1 − 0.05.
    expect(-t.lower / t.se).toBeGreaterThan(1.68);
  });
});

describe('missing data is never a pass', () => {
  const baseline = kindRun('S2_Loops', 'l', 200, 100);

  it('zero overlap: inconclusive, both sides counted', () => {
    const c = compareRuns(run(kindRun('S2_Loops', 'other', 50, 25)), base(baseline), policy);
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(['no overlap']);
    expect(c.pairing).toMatchObject({ intersection: 0, candidateOnly: 50, baselineOnly: 200 });
  });

  it('an unscored candidate (every harvest failed): inconclusive, every item listed', () => {
    const candidate = baseline.map((r) => ({
      ...r,
      scored: false,
      correct: false,
      error: 'harvest_error' as const,
    }));
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(expect.arrayContaining(['too few items', 'too many excluded']));
    expect(c.pairing!.excluded).toHaveLength(200);
    expect(c.pairing!.excluded[0]!.reason).toBe('harvest failed in this run');
    expect(c.pairing!.excludedShare).toBe(1);
  });

  it('infrastructure failures are excluded, not scored as losses; above max-excluded, inconclusive', () => {
    // 12 of the 100 right answers came back as request_rejected (the server, not the model).
    const rejected = (i: number) => i % 8 === 0 && i < 96;
    const candidate = baseline.map((r, i) =>
      rejected(i)
        ? { ...r, correct: false, error: 'request_rejected' as const, infrastructure: true }
        : r,
    );
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.pairing!.excluded).toHaveLength(12);
    expect(c.pairing!.excluded[0]!.reason).toBe('no answer in this run (infrastructure)');
    expect(c.overall).toMatchObject({ paired: 188, lost: 0, delta: 0 });
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(['too many excluded']);
    // Allowing 10% excluded, the same data passes: the exclusions were the only doubt.
    expect(
      compareRuns(run(candidate), base(baseline), { ...policy, maxExcluded: 0.1 }).verdict,
    ).toBe('pass');
  });

  it('a kind of which nothing could be paired keeps the verdict inconclusive', () => {
    const loops = kindRun('S2_Loops', 'l', 200, 100);
    const exc = recs('S5_Exceptions', '11111', 'e');
    const lost = exc.map((r) => ({ ...r, correct: false, error: 'response_too_large' as const }));
    const c = compareRuns(run([...loops, ...lost]), base([...loops, ...exc]), policy);
    expect(c.pairing!.excludedShare).toBeCloseTo(5 / 205, 12);
    expect(c.pairing!.missingKinds).toEqual(['S5_Exceptions']);
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(['kind missing']);
    // Without the lost kind the same loops pass.
    expect(compareRuns(run(loops), base([...loops, ...exc]), policy).verdict).toBe('pass');
  });

  it('an item whose oracle changed is not paired', () => {
    const candidate = baseline.map((r, i) => (i < 3 ? { ...r, oracleDigest: 'changed' } : r));
    const c = compareRuns(run(candidate), base(baseline), { ...policy, maxExcluded: 0.1 });
    expect(c.pairing!.excluded.map((e) => e.reason)).toEqual(Array(3).fill('oracle changed'));
    expect(c.overall!.paired).toBe(197);
  });

  it('runs over different instance sets are compared on the intersection, and say so', () => {
    const candidate = [...baseline.slice(50), ...recs('S2_Loops', '0000', 'new')];
    const c = compareRuns(
      { ...run(candidate), provenance: { ...PROVENANCE, instances: 'x'.repeat(64) } },
      base(baseline),
      policy,
    );
    expect(c.pairing).toMatchObject({ intersection: 150, candidateOnly: 4, baselineOnly: 50 });
    expect(c.pairing!.excluded).toHaveLength(0);
    expect(c.notes[0]).toMatch(/instance sets differ/);
    expect(c.verdict).toBe('pass');
  });

  it('gate per-kind: a kind with too few items makes it inconclusive; gate overall does not', () => {
    const records = [...baseline, ...recs('S5_Exceptions', '110011', 'e')];
    expect(compareRuns(run(records), base(records), policy).verdict).toBe('pass');
    const c = compareRuns(run(records), base(records), { ...policy, gate: 'per-kind' });
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(['kind too few items']);
  });
});

describe('repeated samples', () => {
  it('pairs per-item success rates over k samples, not the majority alone', () => {
    const baseline = Array.from({ length: 40 }, (_, i) =>
      rec(`s${i}`, 'S3_ProgramState', true, { samples: 4, samplesCorrect: 4, test: `t${i}` }),
    );
    // The majority is still right everywhere; one sample in four now goes wrong.
    const candidate = baseline.map((r) => ({ ...r, samplesCorrect: 3 }));
    const c = compareRuns(run(candidate), base(baseline), policy);
    expect(c.overall!.baseline).toBe(1);
    expect(c.overall!.candidate).toBe(0.75);
    expect(c.overall!.delta).toBe(-0.25);
    expect(c.verdict).toBe('fail');
  });
});

describe('bad input', () => {
  const records = recs('S2_Loops', '1010101010', 'i');

  it('refuses another scorer or prompt version, naming both', () => {
    const other = { ...run(records), provenance: { ...PROVENANCE, scorer: 'swe-flux@1' } };
    expect(() => compareRuns(other, base(records), policy)).toThrow(
      /file base\.json cannot be compared with this run: scorer tracegate-strict@1 \(baseline\) vs swe-flux@1 \(this run\)/,
    );
    const prompt = { ...run(records), provenance: { ...PROVENANCE, prompt: 'p0' } };
    expect(() => compareRuns(prompt, base(records), policy)).toThrow(
      `prompt version ${PROVENANCE.prompt} (baseline) vs p0 (this run)`,
    );
  });

  it('refuses a baseline with two records of one instance', () => {
    expect(() => compareRuns(run(records), base([...records, records[3]!]), policy)).toThrow(
      /file base\.json: instance "i3" has two records/,
    );
  });
});
