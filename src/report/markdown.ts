import type { Comparison, KindComparison } from '../compare/gate.js';
import type { Results } from '../contracts/results.js';

/** Hidden marker that identifies tracegate's sticky PR comment. */
export const COMMENT_MARKER = '<!-- tracegate:report -->';

const STATUS_ICON: Record<string, string> = {
  improved: '🟢 improved',
  unchanged: '⚪ unchanged',
  inconclusive: '🟡 inconclusive',
  regressed: '🔴 regressed',
};

const VERDICT_LINE: Record<Comparison['verdict'], string> = {
  pass: '✅ **pass** — no category regressed',
  fail: '❌ **fail** — at least one category regressed significantly',
  inconclusive: '🟡 **inconclusive** — a drop was seen but is not significant at this sample size',
  'no-baseline': 'ℹ️ **no baseline** — scores recorded, nothing to compare with',
};

/**
 * Escapes text that did not come from us (ids, model names, server messages)
 * so it cannot break the table, open HTML, or @-mention anyone.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\\`*_{}[\]<>|#]/g, (c) => `\\${c}`)
      .replace(/@/g, '@\u200b')
      // Every line break markdown or a browser honours, a bare CR included.
      .replace(/\r\n?|[\n\u0085\u2028\u2029]/g, ' ')
  );
}

/** Inline code for untrusted text outside tables: no backticks or line breaks can escape it. */
export function codeSpan(text: string): string {
  return `\`${text.replace(/[`\r\n\u0085\u2028\u2029]/g, ' ')}\``;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const signed = (x: number): string =>
  `${x > 0 ? '+' : x < 0 ? '−' : '±'}${(Math.abs(x) * 100).toFixed(1)} pp`;

/** The report shown in the PR comment, the job summary and report.md. */
export function renderReport(results: Results, comparison: Comparison): string {
  const { summary } = results;
  const byKind = new Map<string, KindComparison>(comparison.kinds.map((k) => [k.kind, k]));
  const lines = [
    COMMENT_MARKER,
    `## tracegate — ${escapeMarkdown(results.model.name)}${results.model.revision ? ` @ ${codeSpan(results.model.revision)}` : ''}`,
    '',
    VERDICT_LINE[comparison.verdict],
    '',
    `**Overall: ${pct(summary.accuracy)}** (${summary.correct}/${summary.total}, 95% CI ${pct(summary.ci95[0])}–${pct(summary.ci95[1])})`,
    '',
    '| Kind | n | Score | Baseline | Δ | p (Holm) | Status |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const [kind, s] of Object.entries(summary.byKind)) {
    const c = byKind.get(kind);
    lines.push(
      `| ${kind} | ${s.total} | ${pct(s.accuracy)} (${s.correct}/${s.total}) | ${c ? pct(c.baseline) : '—'} | ${c ? signed(c.delta) : '—'} | ${c ? c.pHolm.toFixed(3) : '—'} | ${c ? STATUS_ICON[c.status] : '—'} |`,
    );
  }
  const errorEntries = Object.entries(summary.errors).filter(([k]) => !k.startsWith('harvest_'));
  if (errorEntries.length) {
    lines.push(
      '',
      `**Not answered as asked:** ${errorEntries.map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    );
  }
  const unscored = results.instances.filter((r) => !r.scored);
  if (unscored.length) {
    lines.push('', '<details><summary>Instances without an oracle (not scored)</summary>', '');
    for (const r of unscored)
      lines.push(`- ${codeSpan(r.id)}: ${r.error} — ${escapeMarkdown(r.detail ?? '')}`);
    lines.push('', '</details>');
  }
  if (results.rejected?.length) {
    lines.push(
      '',
      `<details><summary>⚠️ ${results.rejected.length} suite file(s) rejected (not run)</summary>`,
      '',
    );
    for (const r of results.rejected) lines.push(`- ${escapeMarkdown(r.reason)}`);
    lines.push('', '</details>');
  }
  const q = results.query;
  if (q?.passAtK !== undefined) {
    lines.push(
      '',
      `**pass@${q.samples}: ${pct(q.passAtK)}** (majority of ${q.samples} samples is scored above)`,
    );
  }
  const asked = q
    ? `${escapeMarkdown(q.api)}, ${q.answered} answered (${q.cacheHits} from the response cache), ` +
      `mean latency ${(q.meanLatencyMs / 1000).toFixed(2)} s, ${q.retries} retries · `
    : '';
  lines.push(
    '',
    `<sub>gate: min drop ${pct(comparison.policy.minDrop)}, α ${comparison.policy.alpha} (exact McNemar, Holm) · ` +
      `oracles: ${results.harvest.cached} cached, ${results.harvest.harvested} harvested (${results.harvest.backend}) · ` +
      (results.harvest.environments ?? [])
        .map(
          (e) =>
            `environment ${escapeMarkdown(e.name)}: ${escapeMarkdown(e.source)}, ${escapeMarkdown(e.runtime)} · `,
        )
        .join('') +
      asked +
      `tokens ${summary.tokensIn} in / ${summary.tokensOut} out · prompt ${results.promptVersion}` +
      `${results.prompt ? ` (${escapeMarkdown(results.prompt.context)}, ${escapeMarkdown(results.prompt.budget)})` : ''}</sub>`,
    '',
  );
  return lines.join('\n');
}
