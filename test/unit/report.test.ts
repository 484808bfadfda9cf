import { join } from 'node:path';
import { expectFixture } from '../helpers/fixtures.js';
import {
  compareRuns,
  DEFAULT_MIN_CLUSTERS,
  DEFAULT_MIN_ITEMS,
} from '../../src/stages/compare/gate.js';
import {
  codeSpan,
  COMMENT_MARKER,
  escapeMarkdown,
  renderReport,
} from '../../src/stages/report/markdown.js';
import type { IndexRow } from '../../src/contracts/history.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { mergeRow } from '../../src/adapters/history/index-merge.js';
import { FIXTURES } from '../helpers/cli.js';
import { PROVENANCE, rec, recs, resultsOf } from '../helpers/records.js';

/** Text a hostile instance or model could put in a question or an answer. */
const HOSTILE =
  '@octocat see #1 <!-- tracegate:comment tracegate --> </details> | `tick` ```fence\r\n' +
  '<img src=x onerror=alert(1)> [link](javascript:x) **bold**';

/** A question as the tracer writes it: how to run, the target, the ask, definitions, the shape. */
const TRACER_QUESTION =
  'Run the test `test_loops_6.py::test_total` with pytest from the instance directory (a pytest id). ' +
  'The target function is `calc.core.total` (qualified name `total`) in `calc/core.py` (the path relative ' +
  'to site-packages); "the target" below means it. How many times does the body of the `for` loop at line 3 ' +
  'of the target start, over all its invocations? Definitions: An invocation is one call of the target. ' +
  'Answer as JSON of exactly this shape, where "int" names each value\'s type: {"iterations": "int"}';

const candidate: InstanceRecord[] = [
  // Two items per test file: the gate's clusters.
  ...Array.from({ length: 30 }, (_, i) =>
    rec(`loops-${i}`, 'S2_Loops', i < 10, {
      test: `test_loops_${Math.floor(i / 2)}.py`,
      question:
        i === 10
          ? HOSTILE
          : i === 12
            ? TRACER_QUESTION
            : `How many times does the loop at line 3 turn (item ${i})?`,
      oracle: { iterations: i },
      parsed: i === 11 ? { iterations: HOSTILE } : { iterations: i + 1 },
    }),
  ),
  rec('cfg-1', 'S1_IntraProceduralCFG', true, { oracle: { lines: [1, 2, 4] } }),
  rec('cfg-2', 'S1_IntraProceduralCFG', false, {
    error: 'no_json',
    detail: 'The answer is 3',
    oracle: { lines: [1, 2, 3] },
  }),
  rec('exc-1', 'S5_Exceptions', true, { oracle: { exception: 'KeyError' } }),
  rec('exc-2', 'S5_Exceptions', false, {
    error: 'request_rejected',
    infrastructure: true,
    detail: 'HTTP 400: prompt too long',
    oracle: { exception: 'ValueError' },
  }),
  {
    ...rec('broken|<b>', 'S5_Exceptions', false),
    scored: false,
    error: 'harvest_invalid',
    detail: 'target not executed',
    oracleDigest: undefined,
  },
];
const baseline: InstanceRecord[] = [
  ...Array.from({ length: 30 }, (_, i) =>
    rec(`loops-${i}`, 'S2_Loops', true, { test: `test_loops_${Math.floor(i / 2)}.py` }),
  ),
  rec('cfg-1', 'S1_IntraProceduralCFG', true),
  rec('cfg-2', 'S1_IntraProceduralCFG', true),
  rec('exc-1', 'S5_Exceptions', false),
  rec('exc-2', 'S5_Exceptions', true),
  rec('broken|<b>', 'S5_Exceptions', true),
];

function results(records: InstanceRecord[]): Results {
  return resultsOf(records, {
    model: {
      endpoint: 'http://127.0.0.1:8000/v1',
      name: 'acme-coder @team',
      revision: 'ckpt-0042',
    },
    harvest: { cached: 34, harvested: 0, failed: 1, backend: 'cache' },
    prompt: { version: 'p3', context: 'slice', budget: '16000t' },
    query: {
      api: 'openai-chat',
      samples: 3,
      settings: { temperature: 0.7 },
      answered: 34,
      cacheHits: 4,
      tokensIn: 3400,
      tokensOut: 340,
      retries: 2,
      latencyMs: 34000,
      meanLatencyMs: 1000,
      parseFailures: { no_json: 1 },
      passAtK: 0.4,
    },
  });
}

const baselineResults = resultsOf(baseline, {
  model: { endpoint: 'http://b/v1', name: 'acme-coder <base>', revision: 'ckpt-0041' },
  commit: '3'.repeat(40),
  provenance: { ...PROVENANCE, tracer: 'f'.repeat(64) },
});

describe('the markdown report', () => {
  const comparison = compareRuns(
    results(candidate),
    { results: baselineResults, source: 'file base|line.json' },
    {
      minDrop: 0.05,
      minGain: 0.05,
      alpha: 0.05,
      clusterBy: 'test',
      gate: 'overall',
      maxExcluded: 0.05,
      minItems: DEFAULT_MIN_ITEMS,
      minClusters: DEFAULT_MIN_CLUSTERS,
    },
  );
  const trendRows: IndexRow[] = ['1', '2', '3'].map((c, i) => ({
    name: 'tracegate',
    commit: c.repeat(40),
    recordedAt: `2026-11-0${i + 1}T00:00:00.000Z`,
    verdict: 'pass',
    accuracy: 0.9 - i * 0.05,
    total: 35,
    byKind: { S2_Loops: 1 - i * 0.1, S5_Exceptions: 0.5 },
    model: HOSTILE,
  }));
  const accepted = {
    ...results(candidate),
    commit: '4'.repeat(40),
    accepted: { label: 'tracegate:accept-regression', note: 'pull request #7' },
    cost: { usd: 0.0153, price: { input: 3, output: 15 } },
  };
  const rendered = renderReport(accepted, comparison, {
    trend: {
      name: 'tracegate',
      rows: mergeRow(trendRows, {
        ...trendRows[2]!,
        commit: '4'.repeat(40),
        recordedAt: '2026-11-04T00:00:00.000Z',
        accuracy: 0.4,
      }),
    },
  });

  it('matches the reviewed rendering in test/fixtures/rendered/report.md', () => {
    // Review a changed rendering by deleting the file and re-running: it is written anew.
    const file = join(FIXTURES, 'rendered', 'report.md');
    expectFixture(file, rendered);
  });

  it('opens with one headline: verdict, overall change and bounds, paired items, baseline', () => {
    expect(rendered.startsWith(COMMENT_MARKER)).toBe(true);
    expect(comparison.verdict).toBe('fail');
    const first = rendered
      .split('\n')
      .find((l) => l && !l.startsWith('<!--') && !l.startsWith('#'));
    expect(first).toMatch(
      /^❌ \*\*fail\*\* — overall \*\*−60\.6 pp\*\* \(95% bounds −[0-9.]+ … −[0-9.]+ pp\) · 33 paired · baseline `3333333`$/,
    );
    // The reason follows; the power of a gate that already failed does not.
    expect(rendered).toMatch(/^Significant drop, 5\.0 pp or more as observed: overall −60\.6 pp/m);
    expect(rendered).not.toContain('**Power:**');
  });

  it('states one interval level, once: no Wilson interval, no two-sided 90%', () => {
    expect(rendered.match(/\d+(\.\d+)?% (bounds|interval|CI|lower bound)/g)).toEqual([
      '95% bounds',
    ]);
    expect(rendered).not.toMatch(/90%|CI /);
    expect(rendered).toContain('bounds one-sided each, paired, clustered by test');
  });

  it('lists the kinds that moved first, then the large drops too few to decide alone, by their group pooled', () => {
    const moves = rendered.split('\n').filter((l) => /^- (🔴|🟢|🟠) /.test(l));
    expect(moves).toEqual([
      '- 🔴 **S2_Loops** −66.7 pp (−84.7 … −40.3 pp) on 30 paired items: 100.0% → 33.3%, floor 3.3%',
      '- 🔴 **traced, single test** (3 kinds pooled) −60.6 pp (−79.1 … −35.1 pp) on 33 paired items: ' +
        'regressed — too few alone: S1_IntraProceduralCFG −50.0 pp (2)',
    ]);
    // Before the full table, which is collapsed.
    expect(rendered.indexOf(moves[1]!)).toBeLessThan(
      rendered.indexOf('<details><summary>All kinds'),
    );
  });

  it("has the full table collapsed, with each kind's floor and mark", () => {
    expect(rendered).toContain('<details><summary>All kinds: this run 35.3% (12/34)</summary>');
    expect(rendered).toContain(
      '| S2_Loops | 33.3% (10/30) | 3.3% | 30 (15) | 100.0% | 33.3% | −66.7 pp | −84.7 … −40.3 pp | 🔴 regressed |',
    );
    expect(rendered).toContain(
      '| S5_Exceptions | 50.0% (1/2) | 50.0% | 1 (1) | 0.0% | 100.0% | +100.0 pp | — | 🟠 too few to decide (1 cluster; the gate needs 5) |',
    );
    // Overall floor: each kind's best constant, summed (1 + 1 + 1 of 34).
    expect(rendered).toMatch(/\| \*\*overall\*\* \| 35\.3% \(12\/34\) \| 8\.8% \|/);
    expect(rendered).not.toContain('within noise');
  });

  it('says what the numbers rest on, and a short footer', () => {
    expect(rendered).toContain('- `exc-2`: no answer in this run (infrastructure)');
    expect(rendered).toContain('- `broken|<b>`: harvest failed in this run');
    expect(rendered).toContain('the tracer differs (ffffffffffff → tttttttttttt)');
    // Format failures paired with the baseline's, in one line under the moves.
    expect(rendered).toContain(
      '**Format:** 1 of 33 paired replies could not be read as an answer, against 0 in the baseline (no\\_json 1 / 0: this run / baseline).',
    );
    expect(rendered).toContain('**pass@3: 40.0%**');
    const footer = rendered.trimEnd().split('\n').at(-1)!;
    expect(footer).toMatch(/^<sub>gate overall, min drop 5\.0 pp, α 0\.05 .*<\/sub>$/);
    expect(footer).toContain('openai-chat: 34 answered (4 cached), 1.00 s mean, 2 retries');
    expect(footer.split(' · ').length).toBeLessThanOrEqual(8);
  });

  it('lists the flipped items, the acceptance and the trend', () => {
    expect(comparison.flipped?.lost).toHaveLength(21);
    expect(rendered).toContain(
      '<details><summary>Regressed items — right in the baseline, wrong now (21)</summary>',
    );
    // What the question asks, not how every question starts.
    expect(rendered).toContain(
      '- `loops-12` · S2_Loops · `calc.core.total` — How many times does the body of the \\`for\\` loop at ' +
        'line 3 of the target start, over all its invocations?\n' +
        '  oracle `{"iterations":12}` · answer `{"iterations":13}`',
    );
    expect(rendered).not.toMatch(/with pytest from the instance directory|Answer as JSON/);
    expect(rendered).toContain(
      '<details><summary>Fixed items — wrong in the baseline, right now (1)</summary>',
    );
    expect(rendered).toContain(
      '🟣 **Regression accepted** by the label `tracegate:accept-regression` (pull request \\#7)',
    );
    expect(rendered).toMatch(/x-axis \["1111111", "2222222", "3333333", "4444444"\]/);
    expect(rendered).toContain('line [90.0, 85.0, 80.0, 40.0]');
    expect(rendered).toContain('tokens 3500 in / 350 out, $0.02 at $3/$15 per M');
  });

  it('lets no hostile question or answer open HTML, close a block, mention, or forge the marker', () => {
    // Outside code spans (literal text on GitHub), only the report's own tags and marker remain.
    const prose = rendered.replace(/`[^`\n]*`/g, '');
    const tags = [...prose.matchAll(/(?<!\\)<(\/?[A-Za-z!][\w-]*)/g)].map((m) => m[1]);
    expect(new Set(tags)).toEqual(
      new Set(['!--', 'details', 'summary', '/summary', '/details', 'sub', '/sub']),
    );
    expect(prose.match(/(?<!\\)<!--/g)).toHaveLength(1);
    expect(rendered.split('\n', 1)[0]).toBe(COMMENT_MARKER);
    expect(prose.match(/(?<!\\)<details>/g)?.length).toBe(
      prose.match(/(?<!\\)<\/details>/g)?.length,
    );
    expect(prose).not.toMatch(/(?<!\\)@octocat|(?<!\\)#1\b|\r|```fence/);
    // The hostile question is one list line, escaped; the hostile answer stays inside its code span.
    expect(rendered).toContain(
      '- `loops-10` · S2_Loops — @\u200boctocat see \\#1 \\<!-- tracegate:comment tracegate --\\> \\</details\\> \\| \\`tick\\` \\`\\`\\`fence ',
    );
    expect(rendered).toMatch(
      /answer `\{"iterations":"@octocat see #1 <!-- tracegate:comment tracegate --> <\/details> \| {2}tick {2} {3}fence\\r\\n/,
    );
  });

  it('escapes text that did not come from tracegate', () => {
    expect(rendered).toContain('acme-coder @\u200bteam');
    expect(rendered).toContain(
      'Compared with acme-coder \\<base\\> @ `ckpt-0041` — file base\\|line.json',
    );
    expect(rendered).toContain('- `broken|<b>`: harvest_invalid — target not executed');
    expect(rendered).not.toMatch(/^[^`]*<b>/m);
    expect(codeSpan('a`b\nc')).toBe('`a b c`');
    expect(escapeMarkdown('a|b\n<script>')).toBe('a\\|b \\<script\\>');
  });
});

describe('the report at a glance, on other verdicts', () => {
  const policy = {
    minDrop: 0.05,
    minGain: 0.05,
    alpha: 0.05,
    clusterBy: 'test' as const,
    gate: 'overall' as const,
    maxExcluded: 0.05,
    minItems: DEFAULT_MIN_ITEMS,
    minClusters: DEFAULT_MIN_CLUSTERS,
  };
  // 200 loops items, one changed answer each way; 9 exception items in 9 tests, 3 of 7 right ones lost.
  const loopsBase = recs('S2_Loops', '1'.repeat(150) + '0'.repeat(50), 'l', 2);
  const loopsCand = recs('S2_Loops', '0' + '1'.repeat(149) + '1' + '0'.repeat(49), 'l', 2);
  const excBase = recs('M5_Exceptions', '111111100', 'e');
  const excCand = recs('M5_Exceptions', '000111100', 'e');
  const c = compareRuns(
    resultsOf([...loopsCand, ...excCand]),
    {
      results: resultsOf([...loopsBase, ...excBase], { commit: 'a'.repeat(40) }),
      source: 'history',
    },
    policy,
  );
  const report = renderReport(resultsOf([...loopsCand, ...excCand]), c);

  it('a pass can still show a large drop on too few items, apart from the noise, sized', () => {
    expect(c.verdict).toBe('pass');
    const m5 = c.kinds.find((k) => k.kind === 'M5_Exceptions')!;
    expect(m5).toMatchObject({ paired: 9, status: 'too few items' });
    // 3 losses in 9 single-item clusters: centre −3/11, S = 1 + 264/121, se = √(9/8 · S/121) = 0.172,
    // σ = 3·se = 0.516. The gate's family with M5 in it: overall, S2_Loops, M5 (α/3). The smallest m
    // with (1/3)·m/(m+2) ≥ t₁₋α/3,m−1 · σ/√m is 17 (checked with scipy): 8 more.
    expect(m5.test!.se).toBeCloseTo(Math.sqrt((9 / 8) * (1 + 264 / 121)) / 11, 12);
    expect(report).toContain(
      '- 🟠 **M5_Exceptions** −33.3 pp on 9 paired items: too few to decide; +8 items would',
    );
    expect(report).toMatch(/^✅ \*\*pass\*\* — overall \*\*−1\.4 pp\*\* \(95% bounds /m);
    expect(report).toContain('· 209 paired · baseline `aaaaaaa`');
    // A flat kind is within noise, in the collapsed table only.
    expect(report).toMatch(/\| S2_Loops \| .* \| ±0\.0 pp \| .* \| ⚪ within noise \|/);
    expect(report).not.toContain('**S2_Loops**');
    expect(report).toContain('**Power:**');
  });

  it('says so when nothing moved', () => {
    const flat = compareRuns(
      resultsOf(loopsBase),
      { results: resultsOf(loopsBase), source: 'history' },
      policy,
    );
    expect(renderReport(resultsOf(loopsBase), flat)).toContain(
      'No kind moved significantly or dropped 10.0 pp or more.',
    );
  });

  it('without a baseline: this run and nothing to compare with', () => {
    const none = compareRuns(resultsOf(loopsCand), undefined, policy);
    const text = renderReport(resultsOf(loopsCand), none);
    expect(text).toContain(
      'ℹ️ **no baseline** — this run **75.0%** (150/200); nothing to compare with.',
    );
    expect(text).not.toMatch(/No kind moved|95% bounds/);
  });
});
