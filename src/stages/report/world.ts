import type { Results } from '../../contracts/results.js';
import { RANK_LISTS, type WorldSummary } from '../../families/world/score.js';

const num = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined ? '—' : x.toFixed(digits);

/** What the figures did with the items that gave no usable answer. */
const unanswered = (n: number | undefined, how: string) => (n ? `; ${n} unanswered, ${how}` : '');

/**
 * The JetBrains study's metrics for the run's world-model instances, beside
 * the pass rates the gate uses (none when the run has none).
 */
export function worldSection(results: Results): string[] {
  const world = results.summary.world as WorldSummary | undefined;
  if (!world) return [];
  // Collapsed: the metrics explain the pass rates; the gate decides on those.
  const lines = [
    '',
    '<details><summary>World-model metrics (as the study measures them; the gate uses the pass rule)</summary>',
    '',
  ];
  lines.push('| measure | n | figures |', '| --- | ---: | --- |');
  if (world.outcome) {
    const o = world.outcome;
    lines.push(
      `| W1 outcome (failure positive) | ${o.n} | precision ${num(o.precision)}, recall ${num(o.recall)}, F1 ${num(o.f1)}` +
        `${unanswered(o.unanswered, 'counted as the wrong class')} |`,
    );
  }
  for (const [label, c] of [
    ['W2 peak memory (log10)', world.memory],
    ['W3 wall time (log10)', world.time],
  ] as const) {
    if (c) {
      const figures = c.n
        ? `slope ${num(c.slope)}, bias ${num(c.bias)}, MAE ${num(c.mae)}`
        : 'no number to calibrate';
      const n = c.n + (c.unanswered ?? 0);
      lines.push(
        `| ${label} | ${n} | ${figures}${unanswered(c.unanswered, `not in the ${c.n} calibrated`)} |`,
      );
    }
  }
  if (world.profile) {
    const p = world.profile;
    const per = RANK_LISTS.filter((l) => p.ndcg5[l] !== undefined)
      .map((l) => `${l} NDCG@5 ${num(p.ndcg5[l])} / Recall@5 ${num(p.recall5[l])}`)
      .join('; ');
    lines.push(
      `| W4 profile | ${p.n} | ${per}; execution rate ${num(p.executionRate)}` +
        `${unanswered(p.unanswered, 'scored as empty lists')} |`,
    );
  }
  lines.push('', '</details>');
  return lines;
}
