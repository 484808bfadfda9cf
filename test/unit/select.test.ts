import { UsageError } from '../../src/errors.js';
import { QUESTION_KINDS, type QuestionKind } from '../../src/contracts/kinds.js';
import { selectInstances } from '../../src/stages/select/select.js';

const kinds: QuestionKind[] = ['S1_IntraProceduralCFG', 'S2_Loops', 'M2_Loops', 'S5_Exceptions'];
const all = Array.from({ length: 40 }, (_, i) => ({
  instance: { id: `inst-${String(i).padStart(2, '0')}`, kind: kinds[i % 4]! },
}));

describe('selectInstances', () => {
  it('filters by kind, prefix and category name', () => {
    expect(selectInstances(all, { categories: ['S1'] })).toHaveLength(10);
    expect(selectInstances(all, { categories: ['Loops'] })).toHaveLength(20);
    expect(selectInstances(all, { categories: ['S5_Exceptions', 's2'] })).toHaveLength(20);
  });

  it('samples deterministically; within a stratum, stably when instances are added', () => {
    const a = selectInstances(all, { sample: 8, seed: 7 }).map((x) => x.instance.id);
    const b = selectInstances(all, { sample: 8, seed: 7 }).map((x) => x.instance.id);
    const c = selectInstances(all, { sample: 8, seed: 8 }).map((x) => x.instance.id);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    // Four more of each kind: every stratum keeps its quota (2 of 8), and its items.
    const grown = [
      ...all,
      ...Array.from({ length: 4 }, (_, i) => ({
        instance: { id: `zzz-${i}`, kind: kinds[i % 4]! },
      })),
    ];
    const d = selectInstances(grown, { sample: 8, seed: 7 }).map((x) => x.instance.id);
    expect(d.filter((id) => !id.startsWith('zzz')).every((id) => a.includes(id))).toBe(true);
  });

  it('keeps the mix of kinds and packages in a sample (stratified)', () => {
    // 1,000 items over 14 kinds × 10 packages, of uneven sizes.
    const allKinds = QUESTION_KINDS;
    const items = Array.from({ length: 1000 }, (_, i) => ({
      instance: {
        id: `i-${i}`,
        kind: allKinds[(i * 7) % allKinds.length]!,
        environment: `pkg-${Math.floor((i * i) % 97) % 10}`,
      },
    }));
    const sample = selectInstances(items, { sample: 200, seed: 3 });
    expect(sample).toHaveLength(200);
    const share = (list: typeof items, key: (x: (typeof items)[0]) => string) => {
      const counts = new Map<string, number>();
      for (const x of list) counts.set(key(x), (counts.get(key(x)) ?? 0) + 1);
      return counts;
    };
    for (const key of [
      (x: (typeof items)[0]) => x.instance.kind,
      (x: (typeof items)[0]) => x.instance.environment,
      (x: (typeof items)[0]) => `${x.instance.kind}|${x.instance.environment}`,
    ]) {
      const whole = share(items, key);
      const part = share(sample, key);
      for (const [k, n] of whole) {
        // Each stratum (and so each kind and package) within one item of its exact share.
        const expected = (n * 200) / 1000;
        const slack = key(items[0]!).includes('|') ? 1 : 10;
        expect(Math.abs((part.get(k) ?? 0) - expected)).toBeLessThanOrEqual(slack);
      }
    }
  });

  it('rejects an empty selection and unknown categories', () => {
    expect(() => selectInstances(all, { ids: ['nope'] })).toThrow(UsageError);
    expect(() => selectInstances(all, { categories: ['S9'] })).toThrow(/names no question kind/);
  });
});
