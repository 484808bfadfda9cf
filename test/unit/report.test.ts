import { join } from 'node:path';
import { expectFixture } from '../helpers/fixtures.js';
import { compareRuns } from '../../src/compare/gate.js';
import {
  codeSpan,
  COMMENT_MARKER,
  escapeMarkdown,
  renderReport,
} from '../../src/report/markdown.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { summarize } from '../../src/score/aggregate.js';
import { FIXTURES } from '../helpers/cli.js';

function record(
  id: string,
  kind: InstanceRecord['kind'],
  correct: boolean,
  extra: Partial<InstanceRecord> = {},
): InstanceRecord {
  return {
    id,
    kind,
    scored: true,
    correct,
    error: null,
    tokensIn: 100,
    tokensOut: 10,
    latencyMs: 5,
    retries: 0,
    ...extra,
  };
}

const candidate: InstanceRecord[] = [
  ...Array.from({ length: 12 }, (_, i) => record(`loops-${i}`, 'S2_Loops', i < 2)),
  record('cfg-1', 'S1_IntraProceduralCFG', true),
  record('cfg-2', 'S1_IntraProceduralCFG', false, { error: 'no_json', detail: 'The answer is 3' }),
  record('exc-1', 'S5_Exceptions', true),
  {
    ...record('broken|<b>', 'S5_Exceptions', false),
    scored: false,
    error: 'harvest_invalid',
    detail: 'target not executed',
  },
];
const baseline: InstanceRecord[] = [
  ...Array.from({ length: 12 }, (_, i) => record(`loops-${i}`, 'S2_Loops', true)),
  record('cfg-1', 'S1_IntraProceduralCFG', true),
  record('cfg-2', 'S1_IntraProceduralCFG', true),
  record('exc-1', 'S5_Exceptions', false),
];

function results(records: InstanceRecord[]): Results {
  return {
    schema: 'tracegate/results@1',
    model: {
      endpoint: 'http://127.0.0.1:8000/v1',
      name: 'acme-coder @team',
      revision: 'ckpt-0042',
    },
    promptVersion: 'p2',
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:01:00.000Z',
    harvest: { cached: 15, harvested: 0, failed: 1, backend: 'cache' },
    prompt: { version: 'p2', context: 'slice', budget: '16000t' },
    query: {
      api: 'openai-chat',
      samples: 3,
      settings: { temperature: 0.7 },
      answered: 15,
      cacheHits: 4,
      tokensIn: 1600,
      tokensOut: 160,
      retries: 2,
      latencyMs: 15000,
      meanLatencyMs: 1000,
      parseFailures: { no_json: 1 },
      passAtK: 0.4,
    },
    summary: summarize(records),
    instances: records,
  };
}

describe('the markdown report', () => {
  const comparison = compareRuns(candidate, baseline, { minDrop: 0.05, alpha: 0.05 });
  const rendered = renderReport(results(candidate), comparison);

  it('matches the reviewed rendering in test/fixtures/rendered/report.md', () => {
    // Review a changed rendering by deleting the file and re-running: it is written anew.
    const file = join(FIXTURES, 'rendered', 'report.md');
    expectFixture(file, rendered);
  });

  it('carries the sticky marker, the verdict and per-kind deltas', () => {
    expect(rendered.startsWith(COMMENT_MARKER)).toBe(true);
    expect(comparison.verdict).toBe('fail');
    expect(rendered).toMatch(
      /\| S2_Loops \| 12 \| 16\.7% \(2\/12\) \| 100\.0% \| −83\.3 pp \| [0-9.]+ \| 🔴 regressed \|/,
    );
    expect(rendered).toMatch(
      /\| S5_Exceptions \| 1 \| 100\.0% \(1\/1\) \| 0\.0% \| \+100\.0 pp \| 1\.000 \| ⚪ unchanged \|/,
    );
    expect(rendered).toContain('no_json ×1');
    expect(rendered).toContain('**pass@3: 40.0%**');
    expect(rendered).toContain(
      'openai-chat, 15 answered (4 from the response cache), mean latency 1.00 s, 2 retries',
    );
  });

  it('escapes text that did not come from tracegate', () => {
    expect(rendered).toContain('acme-coder @\u200bteam');
    expect(rendered).toContain('- `broken|<b>`: harvest_invalid — target not executed');
    expect(rendered).not.toMatch(/^[^`]*<b>/m);
    expect(codeSpan('a`b\nc')).toBe('`a b c`');
    expect(escapeMarkdown('a|b\n<script>')).toBe('a\\|b \\<script\\>');
  });
});
