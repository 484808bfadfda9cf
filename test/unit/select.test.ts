import { UsageError } from '../../src/errors.js';
import type { QuestionKind } from '../../src/contracts/kinds.js';
import { selectInstances } from '../../src/select/select.js';

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

  it('samples deterministically and stably when instances are added', () => {
    const a = selectInstances(all, { sample: 5, seed: 7 }).map((x) => x.instance.id);
    const b = selectInstances(all, { sample: 5, seed: 7 }).map((x) => x.instance.id);
    const c = selectInstances(all, { sample: 5, seed: 8 }).map((x) => x.instance.id);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const grown = [...all, { instance: { id: 'zzz', kind: kinds[0]! } }];
    const d = selectInstances(grown, { sample: 5, seed: 7 }).map((x) => x.instance.id);
    expect(d.filter((id) => id !== 'zzz').every((id) => a.includes(id))).toBe(true);
  });

  it('rejects an empty selection and unknown categories', () => {
    expect(() => selectInstances(all, { ids: ['nope'] })).toThrow(UsageError);
    expect(() => selectInstances(all, { categories: ['S9'] })).toThrow(/names no question kind/);
  });
});
