import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUESTION_KINDS, type QuestionKind } from '../../src/contracts/kinds.js';
import type { KindFamily } from '../../src/families/family.js';
import { FAMILIES, familyOf, familyTable } from '../../src/families/registry.js';
import { passes } from '../../src/stages/score/verdict.js';
import { chanceLevel } from '../../src/stages/score/chance.js';
import { oracleDigest } from '../../src/stages/kinds/digest.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The kind-family registry: every kind belongs to exactly one family, stages ask the registry
 * rather than a kind's name, and a new family is one folder plus one line (CONTRIBUTING.md).
 */
describe('kind families', () => {
  it('claim every kind exactly once', () => {
    const claimed = FAMILIES.flatMap((f) => [...f.kinds]).sort();
    expect(claimed).toEqual([...QUESTION_KINDS].sort());
    for (const kind of QUESTION_KINDS) expect(familyOf(kind).kinds).toContain(kind);
  });

  it('refuse a kind claimed twice, a known kind claimed by none, and an unknown kind', () => {
    const twice: KindFamily = { ...FAMILIES[0]!, name: 'copy', kinds: ['S2_Loops'] };
    expect(() => familyTable([...FAMILIES, twice])).toThrow(
      /kind S2_Loops is claimed by two families \(traced and copy\)/,
    );
    expect(() => familyTable(FAMILIES.slice(1))).toThrow(
      /S1_IntraProceduralCFG, .*claimed by no family/,
    );
    expect(() => familyOf('Z9_Nothing')).toThrow(/unknown question kind Z9_Nothing/);
  });

  it('are asked by the stages, never tested by name outside the registry and the contracts', () => {
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (path.endsWith('.ts'))
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (/isCometKind\(|isWorldKind\(/.test(line)) hits.push(`${path}:${i + 1}`);
            });
      }
    };
    walk(join(ROOT, 'src'));
    // The two definitions, and the instance schema's two family rules (contracts import only zod).
    expect(hits.map((h) => h.replace(/:\d+$/, '').replace(ROOT, ''))).toEqual([
      '/src/contracts/instance.ts',
      '/src/contracts/instance.ts',
      '/src/contracts/kinds.ts',
      '/src/contracts/kinds.ts',
    ]);
  });

  // CONTRIBUTING.md, "Add a kind family", followed for a toy family: its kinds, the interface, one
  // line in the registry. The stages then take its decisions from it.
  it('take a new family from one object that implements the interface', () => {
    const toy: KindFamily = {
      name: 'toy',
      kinds: ['S2_Loops'],
      generator: 'scripts/generate-toy.py',
      harvestCost: 3,
      fixed: 'bug-kind',
      runsReplies: false,
      constantFloor: true,
      pairedAnswer: () => 'any',
      passes: (_kind, truth, prediction) => String(truth) === String(prediction).trim(),
    };
    const table = familyTable(
      [toy, { ...FAMILIES[0]!, kinds: FAMILIES[0]!.kinds.slice(0, 1) }],
      ['S1_IntraProceduralCFG', 'S2_Loops'],
    );
    expect(table.get('S2_Loops')).toBe(toy);
    expect(table.get('S1_IntraProceduralCFG')?.name).toBe('traced');
    expect(toy.passes!('S2_Loops', 3, ' 3 ', 2)).toBe(true);
  });

  it('decide what the stages did by name before (behaviour unchanged)', () => {
    // The world-model pass rule, its pairing on the measured part only, Comet's missing floor.
    expect(passes('W3_WallTime', { wall_ms: 10 }, { wall_ms: 19.9 })).toBe(true);
    expect(passes('W3_WallTime', { wall_ms: 10 }, { wall_ms: 20.1 })).toBe(false);
    expect(passes('S2_Loops', { n: 1 }, { n: 1 })).toBe(true);
    const oracle = (answer: object) => ({
      question_kind: 'W3_WallTime' as QuestionKind,
      question: 'q',
      template_answer: {},
      oracle_answer: answer,
    });
    expect(oracleDigest(oracle({ wall_ms: 3 }))).toBe(oracleDigest(oracle({ wall_ms: 9 })));
    expect(oracleDigest({ ...oracle({ n: 3 }), question_kind: 'S2_Loops' as const })).not.toBe(
      oracleDigest({ ...oracle({ n: 9 }), question_kind: 'S2_Loops' as const }),
    );
    expect(
      chanceLevel('W3_WallTime', [{ wall_ms: 1 }, { wall_ms: 1.5 }, { wall_ms: 100 }]),
    ).toEqual(expect.objectContaining({ correct: 2, total: 3 }));
    expect(familyOf('B1_BuggyIO')).toEqual(
      expect.objectContaining({ runsReplies: true, constantFloor: false, fixed: 'bug-kind' }),
    );
    expect(familyOf('W4_Profile').timedKinds).toContain('W4_Profile');
    expect(familyOf('W1_Outcome').timedKinds).not.toContain('W1_Outcome');
  });
});
