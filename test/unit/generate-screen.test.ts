import type { CachedOracle, HarvestOutcome } from '../../src/contracts/oracle.js';
import type { Candidate, ScoutedFunction } from '../../src/contracts/scout.js';
import { chooseTargets, draft } from '../../src/stages/screen/candidates.js';
import {
  harvestRule,
  isEmptyAnswer,
  MAX_COMMON_SHARE,
  PER_TARGET_KIND,
  screen,
  sizeProblem,
} from '../../src/stages/screen/screen.js';

const candidate = (kind: string, query: Record<string, unknown>, fn = 'walk'): Candidate => ({
  kind,
  query,
  target: { file: 'pkg/mod.py', function: fn },
  tests: ['test_mod.py::test_a'],
});

function ok(answer: unknown, question: string, complexity?: number): HarvestOutcome {
  const meta = complexity === undefined ? {} : { complexity: { score: complexity } };
  return {
    status: 'ok',
    fromCache: false,
    entry: {
      oracle: { question, oracle_answer: answer, meta } as unknown as CachedOracle['oracle'],
      context: {} as CachedOracle['context'],
    },
  };
}

describe('the generator, pure parts', () => {
  it('drafts the same id and bytes for the same candidate, another for another', () => {
    const a = draft(
      candidate('S2_Loops', { mode: 'count', invocation: 1, loop_line: 7 }),
      'pkg',
      'pkg',
      60,
    );
    const b = draft(
      candidate('S2_Loops', { loop_line: 7, invocation: 1, mode: 'count' }),
      'pkg',
      'pkg',
      60,
    );
    const c = draft(
      candidate('S2_Loops', { mode: 'count', invocation: 2, loop_line: 7 }),
      'pkg',
      'pkg',
      60,
    );
    expect(a.instance.id).toMatch(/^pkg-s2-count-walk-[0-9a-f]{8}$/);
    expect(b.bytes.equals(a.bytes)).toBe(true); // key order does not matter
    expect(c.instance.id).not.toBe(a.instance.id);
    expect(a.fileName).toBe(`${a.instance.id}.instance.json`);
    expect(JSON.parse(a.bytes.toString())).toEqual({
      id: a.instance.id,
      kind: 'S2_Loops',
      environment: 'pkg',
      tests: ['test_mod.py::test_a'],
      target: { file: 'pkg/mod.py', function: 'walk' },
      query: { invocation: 1, loop_line: 7, mode: 'count' },
      timeout_seconds: 60,
    });
  });

  it('chooses the richest targets, ties broken by the seed', () => {
    const fn = (qualname: string, lines: number): ScoutedFunction => ({
      file: 'pkg/mod.py',
      qualname,
      first_line: 1,
      invocations: 1,
      described: [],
      lines: Object.fromEntries(Array.from({ length: lines }, (_, i) => [String(i + 2), 1])),
      exceptions: {},
      callees: [],
      variables: {},
      line_names: {},
    });
    const functions = [fn('small', 2), fn('big', 30), fn('tie1', 10), fn('tie2', 10)];
    const cands = functions.map((f) =>
      candidate('M1_IntraProceduralCFG', { mode: 'covered' }, f.qualname),
    );
    expect(chooseTargets(functions, cands, 1, 0)).toEqual(['pkg/mod.py::big']);
    const picks = new Set(
      [0, 1, 2, 3, 4, 5].map((seed) => chooseTargets(functions, cands, 2, seed)[1]),
    );
    expect(picks).toEqual(new Set(['pkg/mod.py::tie1', 'pkg/mod.py::tie2']));
  });

  it('names the rule a harvest failure breaks', () => {
    expect(harvestRule('tests failed: test_a.py::test_x (pytest exit 1)')).toBe('test-fails');
    expect(harvestRule('target not executed')).toBe('target-not-executed');
    expect(harvestRule('nondeterministic: run 1 ok: 3 | run 2 ok: 4')).toBe('not-byte-stable');
    expect(harvestRule('a value was cut at 500 characters (x)')).toBe('value-truncated');
    expect(harvestRule('iteration 2 not reached: the loop ran 1 time(s)')).toBe('no-answer');
  });

  it('calls an answer empty only when it says nothing', () => {
    expect(isEmptyAnswer({ caught_exception_kinds: [] })).toBe(true);
    expect(isEmptyAnswer({ loop_iteration_count: 0 })).toBe(true);
    expect(isEmptyAnswer({ max_iterations: 0, min_iterations: 0 })).toBe(true);
    expect(isEmptyAnswer({ invariant_exists: false })).toBe(false);
    expect(isEmptyAnswer({ max_iterations: 3, min_iterations: 0 })).toBe(false);
    expect(sizeProblem({ executed_path: Array(151).fill(1) })).toMatch(/list of 151 items/);
    expect(sizeProblem({ value: 'x'.repeat(2000) })).toBeUndefined();
    expect(sizeProblem({ value: 'x'.repeat(4000) })).toMatch(
      /answer is 4012 characters \(max 4000\)/,
    );
    expect(sizeProblem({ loop_iteration_count: 3 })).toBeUndefined();
  });

  it('screens: harvest failures, empty, demo-right, duplicates, then the common-answer cap', () => {
    // Each on its own target (the per-target cap is checked below).
    const drafted = Array.from({ length: 16 }, (_, i) =>
      draft(
        candidate('S2_Loops', { mode: 'count', invocation: 1, loop_line: 7 }, `f${i}`),
        'pkg',
        'pkg',
        60,
      ),
    );
    const outcomes = new Map<string, HarvestOutcome>();
    drafted.forEach((d, i) => {
      const id = d.instance.id;
      if (i === 0) outcomes.set(id, { status: 'invalid', reason: 'target not executed' });
      else if (i === 1) outcomes.set(id, ok({ loop_iteration_count: 0 }, `q${i}`));
      else if (i === 2) outcomes.set(id, ok({ loop_iteration_count: 9 }, 'q2'));
      else if (i === 3)
        outcomes.set(id, ok({ loop_iteration_count: 8 }, 'q2')); // same question as 2
      // 12 more, of which 6 share one answer: only a quarter of the kind may.
      else outcomes.set(id, ok({ loop_iteration_count: i < 10 ? 4 : i }, `q${i}`));
    });
    const demoRight = new Set([drafted[15]!.instance.id]);
    const { accepted, rejected } = screen(drafted, outcomes, demoRight, { seed: 0 });
    const rule = (i: number) => rejected.find((r) => r.id === drafted[i]!.instance.id)?.rule;
    expect(rule(0)).toBe('target-not-executed');
    expect(rule(1)).toBe('empty-answer');
    expect(rule(3)).toBe('duplicate-question');
    expect(rule(15)).toBe('demo-model-right');
    const answers = accepted.map(
      (s) => (s.answer as { loop_iteration_count: number }).loop_iteration_count,
    );
    const fours = answers.filter((a) => a === 4).length;
    expect(fours).toBeGreaterThanOrEqual(1);
    expect(fours / answers.length).toBeLessThanOrEqual(MAX_COMMON_SHARE + 1e-9);
    expect(rejected.filter((r) => r.rule === 'common-answer').length).toBe(6 - fours);
    // Every candidate is either kept or rejected with one rule.
    expect(accepted.length + rejected.length).toBe(drafted.length);
    // Another answer kept on one target at most PER_TARGET_KIND times.
    const same = Array.from({ length: 5 }, (_, i) =>
      draft(
        candidate('S2_Loops', { mode: 'count', invocation: i + 1, loop_line: 7 }),
        'pkg',
        'pkg',
        60,
      ),
    );
    const capped = screen(
      same,
      new Map(
        same.map((d, i) => [d.instance.id, ok({ loop_iteration_count: i + 1 }, `s${i}`)] as const),
      ),
      new Set(),
      { seed: 0 },
    );
    expect(capped.accepted).toHaveLength(PER_TARGET_KIND);
    expect(capped.rejected.map((r) => r.rule)).toEqual(['target-cap', 'target-cap']);
    // The same inputs and seed, the same result.
    expect(screen(drafted, outcomes, demoRight, { seed: 0 })).toEqual({ accepted, rejected });
  });

  it('caps the total round robin over kinds, so a small cap keeps the mix', () => {
    const kinds = ['S1_IntraProceduralCFG', 'S2_Loops', 'S3_ProgramState'];
    const drafted = kinds.flatMap((kind, k) =>
      Array.from({ length: 10 }, (_, i) =>
        draft(candidate(kind, { mode: 'x', invocation: i }, `f${k}_${i}`), 'pkg', 'pkg', 60),
      ),
    );
    const outcomes = new Map(
      drafted.map((d, i) => [d.instance.id, ok({ n: i + 1 }, `q${i}`)] as const),
    );
    const { accepted, rejected } = screen(drafted, outcomes, new Set(), { seed: 1, maxTotal: 9 });
    expect(accepted).toHaveLength(9);
    for (const kind of kinds)
      expect(accepted.filter((s) => s.drafted.instance.kind === kind)).toHaveLength(3);
    expect(rejected.every((r) => r.rule === 'package-cap')).toBe(true);
  });

  it("caps keep the most complex items first (their oracles' complexity), ties by the seed", () => {
    const drafted = Array.from({ length: 8 }, (_, i) =>
      draft(candidate('S2_Loops', { mode: 'count', invocation: i }, `h${i}`), 'pkg', 'pkg', 60),
    );
    // Complexity 1, 8, 3, 6, 2, 7, 4, 5: the four kept are those of 8, 7, 6 and 5.
    const scores = [1, 8, 3, 6, 2, 7, 4, 5];
    const outcomes = new Map(
      drafted.map((d, i) => [d.instance.id, ok({ n: i + 1 }, `q${i}`, scores[i])] as const),
    );
    for (const seed of [0, 1, 2]) {
      const { accepted } = screen(drafted, outcomes, new Set(), { seed, maxTotal: 4 });
      expect(accepted.map((s) => s.complexity).sort()).toEqual([5, 6, 7, 8]);
    }
    // The target cap too: of one target's items, the three most complex stay.
    const same = Array.from({ length: 5 }, (_, i) =>
      draft(candidate('S2_Loops', { mode: 'count', invocation: i }, 'one'), 'pkg', 'pkg', 60),
    );
    const byTarget = new Map(
      same.map((d, i) => [d.instance.id, ok({ n: i + 1 }, `t${i}`, [2, 9, 4, 1, 6][i])] as const),
    );
    const kept = screen(same, byTarget, new Set(), { seed: 3 }).accepted;
    expect(kept.map((s) => s.complexity).sort()).toEqual([4, 6, 9]);
  });

  it('rejects what the variant screen found no variant for before the caps, so the cap refills', () => {
    const drafted = Array.from({ length: 6 }, (_, i) =>
      draft(candidate('S2_Loops', { mode: 'count', invocation: i }, `g${i}`), 'pkg', 'pkg', 60),
    );
    const outcomes = new Map(
      drafted.map((d, i) => [d.instance.id, ok({ n: i + 1 }, `q${i}`)] as const),
    );
    const before = screen(drafted, outcomes, new Set(), { seed: 2, maxTotal: 3 });
    const gone = before.accepted[0]!.drafted.instance.id;
    const after = screen(drafted, outcomes, new Set(), {
      seed: 2,
      maxTotal: 3,
      noVariant: new Map([[gone, 'no-candidate at epoch 0: none of the 40 edits changes it']]),
    });
    expect(after.accepted).toHaveLength(3);
    expect(after.accepted.map((s) => s.drafted.instance.id)).not.toContain(gone);
    expect(after.rejected.find((r) => r.id === gone)).toMatchObject({
      rule: 'no-variant',
      detail: 'no-candidate at epoch 0: none of the 40 edits changes it',
    });
    // The two kept before are kept still; the third place goes to the next in the cap's order.
    for (const s of before.accepted.slice(1)) expect(after.accepted).toContainEqual(s);
  });
});
