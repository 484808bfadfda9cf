import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import type { ModelClient } from '../../src/contracts/model.js';
import type { Results } from '../../src/contracts/results.js';
import type { HarvestBackend, HarvestJob } from '../../src/contracts/harvest-backend.js';
import { tempDir } from '../helpers/cli.js';
import {
  DROP_DETAIL_CHARS,
  easierOn,
  summarizeVariants,
} from '../../src/stages/variants/variants.js';
import type { Complexity } from '../../src/contracts/complexity.js';
import {
  engines,
  fakeBackend,
  flags,
  options,
  replyingClient,
  type FakeAnswer,
} from '../helpers/fake-engines.js';

/**
 * The variants' path through the real pipeline (search → candidates harvested
 * alone → screen → query → score → memorisation), on a fake tracer: the
 * original's answer is n = 10; the search finds candidates 0, 1, 2 (none for
 * the suite's collatz instances); candidate k answers n = 10 + k, so
 * candidate 0 gives the original's oracle and is dropped (same-oracle), and
 * candidate 1 is the variant (n = 11).
 */
const answerWith =
  (
    sameUpTo: number,
    found = 3,
    searched?: (k: number) => unknown,
    unchanged: unknown = { n: 10 },
  ): FakeAnswer =>
  (spec) => {
    if (!('kind' in spec)) return { n: 0 };
    if (spec.variant_search)
      return {
        candidates: spec.id.includes('collatz')
          ? []
          : Array.from({ length: found }, (_, index) => ({
              index,
              file: 'test_x.py',
              edits: [[1, 0, 1, 1, String(index)]],
              what: `test_x.py line 1: x → ${index}`,
              ...(searched ? { answer: searched(index) } : {}),
            })),
        pool: found,
        targeted: found,
        same: 0,
        failed: 0,
        unreached: 0,
        unanswered: 0,
        unparsed: 0,
        ...(unchanged === null ? {} : { unchanged }), // null: the search gave none
      };
    // A candidate is harvested from the edit its search answered (else it answers the original's oracle).
    const k = spec.variant_candidate;
    if (k !== undefined && spec.variant_edit?.edits[0]?.[4] !== String(k)) return { n: 10 };
    return { n: k === undefined || k < sameUpTo ? 10 : 10 + k };
  };
const answer = answerWith(1);

/** A model that answers the original's oracle (10) on originals, and `variantAnswer(k)` on a variant. */
const client = (variantAnswer: (k: number) => number): ModelClient =>
  replyingClient((text) => {
    const k = /What is n for [\w.-]+@v\d+#(\d+)\?/.exec(text)?.[1];
    return k === undefined ? 10 : variantAnswer(Number(k));
  });

/** Every spec id the fake backend was asked to run, one entry per job it was in. */
let ran: string[] = [];

/** A traced item's complexity (contracts/complexity.ts) with these component scores. */
const complexity = (semantic: number, answer = 3, navigation = 2): Complexity => ({
  version: 1,
  score: Math.round(((semantic + answer + navigation) / 3) * 1000) / 1000,
  semantic,
  answer,
  navigation,
  features: {
    semantic: { steps: 1, lines: 1, branches: 0, turns: 1, invocations: 1, exceptions: 0 },
    answer: { scalars: 1, elements: 0, depth: 1, chars: 8 },
    navigation: { functions: 0, files: 1, tests: 1, test_lines: 3, indirect: 0 },
  },
});

async function runWith(
  model: ModelClient,
  fake = answer,
  fields?: Parameters<typeof fakeBackend>[1],
): Promise<Results> {
  const dir = tempDir('tg-variants-');
  ran = [];
  const backend = (): HarvestBackend => {
    const inner = fakeBackend(fake, fields);
    return {
      ...inner,
      run: async (job: HarvestJob) => {
        const plan = job.plan({ instanceDir: (i) => `/i/${i}`, workDir: '/w', isolation: null });
        ran.push(...plan.instances.map((spec) => spec.id));
        return inner.run(job);
      },
    };
  };
  const with_: Engines = {
    ...engines(() => true),
    backend,
    client: model,
  };
  const code = await cli(
    ['run', ...flags({ ...options(dir), variants: 'add 5', 'variant-epoch': '3' })],
    { stdout: () => {}, stderr: () => {}, env: {} },
    {},
    with_,
  );
  expect([0, 4]).toContain(code);
  return JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Results;
}

/**
 * How many runs each original had (`paired`: the runs expected of an original harvested beside its
 * search: the search's run of its unchanged tests is its second; the others run twice).
 */
const originalRuns = (ids: string[], paired?: number): Record<string, number> => {
  const originals = [...new Set(ids.filter((id) => !id.includes('@')))].sort();
  const searched = (id: string) => ids.some((s) => s.startsWith(`${id}@`) && s.endsWith('~search'));
  return Object.fromEntries(
    originals.map((id) => [
      id,
      paired === undefined ? ids.filter((r) => r === id).length : searched(id) ? paired : 2,
    ]),
  );
};

describe('fresh variants through the pipeline', () => {
  it('keeps the first candidate with an oracle of its own, counts the rest per kind, and records the epoch', async () => {
    const results = await runWith(client((k) => 10 + k));
    const v = results.variants!;
    expect(v).toMatchObject({ epoch: 3, mode: 'add', tried: 5 });
    const collatz = results.instances.filter(
      (r) => r.id.includes('collatz') && !r.id.includes('@'),
    );
    expect(v.dropped).toEqual({ 'no-candidate': collatz.length });
    expect(v.valid).toBe(5 - collatz.length);
    const kinds = Object.values(v.byKind!);
    expect(kinds.reduce((n, k) => n + k.tried, 0)).toBe(5);
    expect(kinds.reduce((n, k) => n + k.valid, 0)).toBe(v.valid);
    const variants = results.instances.filter((r) => r.id.endsWith('@v3'));
    expect(variants).toHaveLength(v.valid);
  });

  it('is harder by construction: answering a variant with its original’s oracle scores 0, echoing it 100%', async () => {
    const recalled = await runWith(client(() => 10));
    const onVariants = (r: Results) => r.instances.filter((i) => i.id.endsWith('@v3'));
    expect(onVariants(recalled).length).toBeGreaterThan(0);
    expect(onVariants(recalled).filter((i) => i.correct)).toHaveLength(0);
    // Every original right, every variant wrong: flagged as possible contamination.
    expect(recalled.memorisation).toMatchObject({ original: 1, variant: 0, difference: 1 });

    const echo = await runWith(client((k) => 10 + k));
    expect(onVariants(echo).every((i) => i.correct)).toBe(true);
    expect(echo.memorisation).toMatchObject({ original: 1, variant: 1, flagged: false });
  });

  it('harvests the next candidate when one fails the screen, up to four candidates', async () => {
    const asked: number[] = [];
    const echo = client((k) => (asked.push(k), 10 + k));
    // Candidates 0 and 1 give the original's oracle: the third round's candidate 2 is the variant.
    const second = await runWith(echo, answerWith(2, 5));
    const found = second.variants!;
    const collatz = second.instances.filter((r) => r.id.includes('collatz') && !r.id.includes('@'));
    expect(found.valid).toBe(5 - collatz.length);
    expect(found.valid).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([2]));
    // Candidates 0–3 all give it: four tried, the fifth never harvested: dropped by the first one's rule.
    const none = await runWith(echo, answerWith(4, 5));
    expect(none.variants!.valid).toBe(0);
    expect(none.variants!.dropped).toEqual({
      'no-candidate': collatz.length,
      'original-answer-passes': 5 - collatz.length,
    });
  });

  it('drops a candidate less complex than its original on any component, and keeps the next that is not', async () => {
    const asked: number[] = [];
    const echo = client((k) => (asked.push(k), 10 + k));
    // The original scores semantic 5; candidate 1 (its own oracle) only 4.5: easier, dropped;
    // candidate 2 is as complex on every component but higher on semantic: kept.
    const semantic = (k: number | undefined) => (k === undefined ? 5 : k === 1 ? 4.5 : 6);
    const fields = (spec: Parameters<FakeAnswer>[0]) => ({
      complexity: complexity(
        semantic('variant_candidate' in spec ? spec.variant_candidate : undefined),
      ),
    });
    const kept = await runWith(echo, answerWith(1, 5), fields);
    const collatz = kept.instances.filter((r) => r.id.includes('collatz') && !r.id.includes('@'));
    expect(kept.variants!.valid).toBe(5 - collatz.length);
    expect(new Set(asked)).toEqual(new Set([2]));
    // Records carry their oracle's combined score: the variants' above their originals'.
    const variant = kept.instances.find((r) => r.id.endsWith('@v3'))!;
    const original = kept.instances.find((r) => r.id === variant.id.replace(/@v3$/, ''))!;
    expect(variant.complexity).toBeGreaterThan(original.complexity!);
    expect(kept.summary.variantComplexity).toMatchObject({ pairs: kept.variants!.valid });
    expect(kept.summary.variantComplexity!.variant).toBeGreaterThan(
      kept.summary.variantComplexity!.original,
    );
    // Every candidate easier on one component (answer here, by more than the resolution): none
    // kept, dropped as `easier`.
    const none = await runWith(echo, answerWith(1, 5), (spec) => ({
      complexity:
        'variant_candidate' in spec && spec.variant_candidate !== undefined
          ? complexity(9, 2.8)
          : complexity(5),
    }));
    // Candidates 1–3 have oracles of their own (kept above): now each is easier; the drop is
    // counted under the first candidate's rule, as every drop is.
    expect(none.variants!.valid).toBe(0);
    expect(none.variants!.dropped).toEqual({
      'no-candidate': collatz.length,
      'original-answer-passes': 5 - collatz.length,
    });
    // results.json names each drop, with what failed it.
    const drops = none.variants!.drops!;
    expect(drops.map((d) => d.rule).sort()).toEqual(
      [
        ...Array<string>(collatz.length).fill('no-candidate'),
        ...Array<string>(5 - collatz.length).fill('original-answer-passes'),
      ].sort(),
    );
    expect(drops.every((d) => d.id.endsWith('@v3') && d.detail.length > 0)).toBe(true);
  });

  it('keeps each drop in results.json with its detail clipped, whatever a hostile reason holds', () => {
    const summary = summarizeVariants({ mode: 'add', count: 2 }, 1, [], [], {
      valid: [],
      dropped: [
        { id: 'b@v1', kind: 'S1_IntraProceduralCFG', rule: 'test-fails', detail: 'x'.repeat(1e6) },
        { id: 'a@v1', kind: 'S2_Loops', rule: 'easier', detail: 'less complex' },
      ],
    });
    expect(summary.drops.map((d) => d.id)).toEqual(['a@v1', 'b@v1']);
    expect(summary.drops[1]!.detail).toHaveLength(DROP_DETAIL_CHARS);
    expect(summary.drops[0]!.detail).toBe('less complex');
  });

  it('compares complexity component by component, and only between oracles that both carry it', () => {
    expect(easierOn(complexity(5), complexity(5))).toBeUndefined();
    expect(easierOn(complexity(6, 3, 2), complexity(5, 3, 2))).toBeUndefined();
    expect(easierOn(complexity(9, 9, 1.8), complexity(5, 3, 2))).toBe(
      'less complex than its original on navigation (1.8 < 2)',
    );
    // Within the resolution (0.1 of the 0–10 scale: an answer's spelling) is as complex.
    expect(easierOn(complexity(5, 2.9, 1.9), complexity(5, 3, 2))).toBeUndefined();
    expect(easierOn(complexity(5, 2.89, 2), complexity(5, 3, 2))).toBe(
      'less complex than its original on answer (2.89 < 3)',
    );
    expect(easierOn(undefined, complexity(5))).toBeUndefined();
    expect(easierOn({ ...complexity(1), version: 2 }, complexity(5))).toBeUndefined();
  });

  it('harvests a candidate the search answered once, and twice more when the search answered otherwise', async () => {
    const echo = client((k) => 10 + k);
    // The search's answers are the fresh harvests' (n = 10 + k): one run per candidate, kept.
    const agreed = await runWith(
      echo,
      answerWith(1, 3, (k) => ({ n: 10 + k })),
    );
    const valid = agreed.variants!.valid;
    expect(valid).toBeGreaterThan(0);
    const candidateRuns = ran.filter((id) => /#\d+$/.test(id));
    expect(candidateRuns.length).toBeGreaterThan(0);
    expect(new Set(candidateRuns).size).toBe(candidateRuns.length);
    expect(originalRuns(ran)).toEqual(originalRuns(ran, 1));
    // The search answered candidate 1 with n = 99 (its interpreter was shared with other copies):
    // the fresh harvest (n = 11) differs, so candidate 1 is harvested again, twice, fresh, and
    // kept on those two runs' answer.
    const asked: number[] = [];
    const differed = await runWith(
      client((k) => (asked.push(k), 10 + k)),
      answerWith(1, 3, (k) => ({ n: k === 1 ? 99 : 10 + k })),
    );
    expect(differed.variants!.valid).toBe(valid);
    expect(new Set(asked)).toEqual(new Set([1]));
    const runsOf = (k: number) => ran.filter((id) => id.endsWith(`#${k}`));
    expect(runsOf(1).length).toBe(3 * new Set(runsOf(1)).size);
    expect(runsOf(0).length).toBe(new Set(runsOf(0)).size);
    expect(differed.variants!.dropped).toEqual(agreed.variants!.dropped);
  });

  it('harvests a candidate whose searched answer is too large for a reply last', async () => {
    const asked: number[] = [];
    // Candidate 0 gives the original's oracle; the search answered candidate 1 past the cap, so
    // candidate 2 is harvested before it and kept.
    const wide = (k: number) => (k === 1 ? { n: 11, pad: 'x'.repeat(5000) } : { n: 10 + k });
    const kept = await runWith(
      client((k) => (asked.push(k), 10 + k)),
      answerWith(1, 3, wide),
    );
    expect(kept.variants!.valid).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([2]));
    expect(ran.some((id) => id.endsWith('#1'))).toBe(false);
  });

  it('takes the search’s run of an original’s unchanged tests as its second run, and runs it twice more when they differ', async () => {
    const echo = client((k) => 10 + k);
    const paired = await runWith(echo);
    const searched = Object.entries(originalRuns(ran)).filter(([id]) =>
      ran.includes(`${id}@v3~search`),
    );
    expect(searched.length).toBe(5);
    expect(originalRuns(ran)).toEqual(originalRuns(ran, 1));
    // The search's run of the unchanged tests answered n = 7, the original's own run n = 10: the
    // original is harvested again, twice, fresh, and kept on those runs' answer (n = 10).
    const differed = await runWith(echo, answerWith(1, 3, undefined, { n: 7 }));
    expect(originalRuns(ran)).toEqual(originalRuns(ran, 3));
    // A search that gives no answer for them (an older tracer, a search that failed): the same.
    const silent = await runWith(echo, answerWith(1, 3, undefined, null));
    expect(originalRuns(ran)).toEqual(originalRuns(ran, 3));
    for (const results of [differed, silent]) {
      expect(results.variants!.valid).toBe(paired.variants!.valid);
      expect(results.instances.filter((r) => !r.id.includes('@')).map((r) => r.correct)).toEqual(
        paired.instances.filter((r) => !r.id.includes('@')).map((r) => r.correct),
      );
      expect(results.summary).toEqual(paired.summary);
    }
  });
});
