import { compareRuns } from '../../src/compare/gate.js';
import { holm, mcnemarExact } from '../../src/compare/stats.js';
import type { InstanceRecord } from '../../src/contracts/results.js';

function records(kind: InstanceRecord['kind'], pattern: string, prefix = 'i'): InstanceRecord[] {
  return [...pattern].map((c, i) => ({
    id: `${prefix}${i}`,
    kind,
    scored: true,
    correct: c === '1',
    error: null,
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 0,
    retries: 0,
  }));
}

const policy = { minDrop: 0.05, alpha: 0.05 };

describe('statistics', () => {
  it('computes the exact McNemar p-value', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(5, 0)).toBeCloseTo(0.0625, 6);
    expect(mcnemarExact(10, 0)).toBeCloseTo(2 / 1024, 6);
    expect(mcnemarExact(3, 3)).toBe(1);
  });

  it('applies Holm step-down', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
  });
});

describe('compareRuns', () => {
  it('fails a kind whose drop is large and significant', () => {
    const base = records('S2_Loops', '1'.repeat(20));
    const cand = records('S2_Loops', '0'.repeat(12) + '1'.repeat(8));
    const result = compareRuns(cand, base, policy);
    expect(result.verdict).toBe('fail');
    expect(result.kinds[0]).toMatchObject({
      status: 'regressed',
      lost: 12,
      gained: 0,
      delta: -0.6,
    });
  });

  it('calls a drop on few instances inconclusive, not a pass or a fail', () => {
    const base = records('S1_IntraProceduralCFG', '1111');
    const cand = records('S1_IntraProceduralCFG', '0011');
    const result = compareRuns(cand, base, policy);
    expect(result.verdict).toBe('inconclusive');
    expect(result.kinds[0]!.status).toBe('inconclusive');
  });

  it('passes when nothing dropped and pairs only shared instances', () => {
    const base = records('S1_IntraProceduralCFG', '0101');
    const cand = [
      ...records('S1_IntraProceduralCFG', '0111'),
      ...records('S1_IntraProceduralCFG', '0', 'new'),
    ];
    const result = compareRuns(cand, base, policy);
    expect(result.verdict).toBe('pass');
    expect(result.kinds[0]!.paired).toBe(4);
  });

  it('reports no-baseline without one', () => {
    expect(compareRuns(records('S2_Loops', '1'), undefined, policy).verdict).toBe('no-baseline');
  });
});
