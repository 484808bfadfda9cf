import { join } from 'node:path';
import { expectFixture } from '../helpers/fixtures.js';
import { compareRuns, DEFAULT_MIN_CLUSTERS, DEFAULT_MIN_ITEMS } from '../../src/compare/gate.js';
import {
  codeSpan,
  COMMENT_MARKER,
  escapeMarkdown,
  renderReport,
} from '../../src/report/markdown.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { FIXTURES } from '../helpers/cli.js';
import { PROVENANCE, rec, resultsOf } from '../helpers/records.js';

const candidate: InstanceRecord[] = [
  // Two items per test file: the gate's clusters.
  ...Array.from({ length: 30 }, (_, i) =>
    rec(`loops-${i}`, 'S2_Loops', i < 10, { test: `test_loops_${Math.floor(i / 2)}.py` }),
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
  const rendered = renderReport(results(candidate), comparison);

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
