import { compareRuns } from '../../src/stages/compare/gate.js';
import { renderReport } from '../../src/stages/report/markdown.js';
import { forTerminal } from '../../src/stages/report/terminal.js';
import { QUESTION_KINDS } from '../../src/contracts/kinds.js';
import type { InstanceRecord } from '../../src/contracts/results.js';
import { rec, resultsOf } from '../helpers/records.js';

/**
 * The PR comment read in ten seconds: a 100-item run over 18 kinds whose checkpoint broke its
 * output format on 44 items (the new-user trial's case) says so in a few lines; everything else
 * is collapsed.
 */
const KINDS = QUESTION_KINDS.filter((k) => k !== 'W4_Profile' && k !== 'S7_Invariants');
const POLICY = {
  alpha: 0.05,
  minDrop: 0.05,
  minGain: 0.05,
  maxExcluded: 0.05,
  clusterBy: 'test' as const,
  gate: 'overall' as const,
  minItems: 10,
  minClusters: 5,
};

/** 100 items, spread over the 18 kinds; item i right in the baseline when i % 5 ≠ 0. */
function run(broken: (i: number) => boolean): InstanceRecord[] {
  return Array.from({ length: 100 }, (_, i) => {
    const kind = KINDS[i % KINDS.length]!;
    const right = i % 5 !== 0 && !broken(i);
    return rec(`item-${i}`, kind, right, {
      test: `t${Math.floor(i / 2)}`,
      ...(broken(i) ? { error: 'schema_mismatch' as const, detail: 'not the template' } : {}),
    });
  });
}

/** The lines a reader sees without opening anything: outside every <details> block, not empty. */
function visibleLines(markdown: string): string[] {
  let depth = 0;
  const shown: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('<details>')) depth++;
    if (!depth && line.trim()) shown.push(line);
    if (line.trim() === '</details>') depth--;
  }
  return shown;
}

describe('the comment at a glance', () => {
  const baseline = resultsOf(run(() => false));
  const candidate = resultsOf(
    run((i) => i % 9 < 4),
    {
      model: { endpoint: 'http://h/v1', name: 'acme-coder', revision: 'ckpt-2' },
    },
  );
  const comparison = compareRuns(
    candidate,
    { results: baseline, source: 'file base.json' },
    POLICY,
  );
  const report = renderReport(candidate, comparison);

  it('fails, and a 100-item, 18-kind run takes at most 30 lines outside its collapsed sections', () => {
    expect(comparison.verdict).toBe('fail');
    expect(new Set(candidate.instances.map((r) => r.kind)).size).toBe(18);
    const shown = visibleLines(report);
    expect(shown.length).toBeLessThanOrEqual(30);
  });

  it('says the format broke, this run against the baseline, flagged', () => {
    expect(comparison.format).toMatchObject({ candidate: 45, baseline: 0, flagged: true });
    expect(visibleLines(report)).toContain(
      '⚠️ **Format:** 45 of 100 paired replies could not be read as an answer, against 0 in the ' +
        'baseline (schema\\_mismatch 45 / 0: this run / baseline) — significantly more (p < 0.0001): ' +
        'the output format broke, which is not the same as reasoning worse.',
    );
  });

  it('pools the kinds too small to decide alone by group, one line a group', () => {
    const shown = visibleLines(report).filter((l) => l.startsWith('- '));
    expect(shown.length).toBeLessThanOrEqual(6);
    expect(shown.some((l) => /\*\*traced, single test\*\* \(\d kinds pooled\)/.test(l))).toBe(true);
    expect(shown.filter((l) => /too few to decide; \+\d+ items would$/.test(l))).toEqual([]);
  });

  it('the terminal gets the same text without markdown marks', () => {
    const plain = forTerminal(report);
    expect(plain).toContain('Format: 45 of 100 paired replies');
    expect(plain).toContain('schema_mismatch 45 / 0');
    expect(plain).not.toMatch(/\*\*|\\[_<|#]|<details>|<\/?sub>|<!--/);
    expect(plain).toMatch(/p < 0\.0001/);
  });
});
