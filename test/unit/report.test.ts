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
import { PROVENANCE, rec, resultsOf } from '../helpers/records.js';

/** Text a hostile instance or model could put in a question or an answer. */
const HOSTILE =
  '@octocat see #1 <!-- tracegate:comment tracegate --> </details> | `tick` ```fence\r\n' +
  '<img src=x onerror=alert(1)> [link](javascript:x) **bold**';

const candidate: InstanceRecord[] = [
  // Two items per test file: the gate's clusters.
  ...Array.from({ length: 30 }, (_, i) =>
    rec(`loops-${i}`, 'S2_Loops', i < 10, {
      test: `test_loops_${Math.floor(i / 2)}.py`,
      question: i === 10 ? HOSTILE : `How many times does the loop at line 3 turn (item ${i})?`,
      oracle: { iterations: i },
      parsed: i === 11 ? { iterations: HOSTILE } : { iterations: i + 1 },
    }),
  ),
  rec('cfg-1', 'S1_IntraProceduralCFG', true),
  rec('cfg-2', 'S1_IntraProceduralCFG', false, { error: 'no_json', detail: 'The answer is 3' }),
  rec('exc-1', 'S5_Exceptions', true),
  rec('exc-2', 'S5_Exceptions', false, {
    error: 'request_rejected',
    infrastructure: true,
    detail: 'HTTP 400: prompt too long',
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

  it('carries the sticky marker, the verdict and per-kind deltas', () => {
    expect(rendered.startsWith(COMMENT_MARKER)).toBe(true);
    expect(comparison.verdict).toBe('fail');
    expect(rendered).toMatch(/^❌ \*\*fail\*\* — Significant drop of at least 5\.0 pp: overall −/m);
    expect(rendered).toMatch(
      /\| S2_Loops \| 33\.3% \(10\/30\) \| 30 \(15\) \| 100\.0% \| 33\.3% \| −66\.7 pp \| −[0-9.]+ pp … −[0-9.]+ pp \| 🔴 regressed \|/,
    );
    expect(rendered).toMatch(
      /\| S5_Exceptions \| 50\.0% \(1\/2\) \| 1 \(1\) \| 0\.0% \| 100\.0% \| \+100\.0 pp \| — \| ▫️ too few items \|/,
    );
    expect(rendered).toContain('| 90% interval |');
    expect(rendered).toContain('- `exc-2`: no answer in this run (infrastructure)');
    expect(rendered).toContain('- `broken|<b>`: harvest failed in this run');
    expect(rendered).toMatch(
      /\*\*Power:\*\* on 33 paired items this gate detects a drop of [0-9.]+ pp/,
    );
    expect(rendered).toContain('the tracer differs (ffffffffffff → tttttttttttt)');
    expect(rendered).toContain('no_json ×1');
    expect(rendered).toContain('**pass@3: 40.0%**');
    expect(rendered).toContain(
      'openai-chat, 34 answered (4 from the response cache), mean latency 1.00 s, 2 retries',
    );
  });

  it('lists the flipped items, the acceptance and the trend', () => {
    expect(comparison.flipped?.lost).toHaveLength(21);
    expect(rendered).toContain(
      '<details><summary>Regressed items — right in the baseline, wrong now (21)</summary>',
    );
    expect(rendered).toContain(
      '- `loops-12` · S2_Loops — How many times does the loop at line 3 turn (item 12)?\n' +
        '  oracle `{"iterations":12}` · answer `{"iterations":13}`',
    );
    expect(rendered).toContain(
      '<details><summary>Fixed items — wrong in the baseline, right now (1)</summary>',
    );
    expect(rendered).toContain(
      '🟣 **Regression accepted** by the label `tracegate:accept-regression` (pull request \\#7)',
    );
    expect(rendered).toMatch(/x-axis \["1111111", "2222222", "3333333", "4444444"\]/);
    expect(rendered).toContain('line [90.0, 85.0, 80.0, 40.0]');
    expect(rendered).toContain('(cost $0.02 at $3/$15 per M tokens)');
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
