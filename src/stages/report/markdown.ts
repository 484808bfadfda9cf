import { level, pct, pp } from '../compare/describe.js';
import type { Comparison } from '../../contracts/comparison.js';
import type { Results } from '../../contracts/results.js';
import {
  comparisonDetails,
  comparisonTable,
  headline,
  policyLine,
  reasonLine,
} from './comparison.js';
import { codeSpan, escapeMarkdown } from './escape.js';
import { flippedSection } from './flipped.js';
import { movesSection } from './moves.js';
import { renderTrend, type TrendOptions } from './trend.js';
import { worldSection } from './world.js';
import { cometSection } from './comet.js';
import { toolsSection } from './tools.js';
import { complexitySection } from './complexity.js';
import type { IndexRow } from '../../contracts/history.js';

export { codeSpan, escapeMarkdown };

/**
 * A hidden line that opens every rendered report (report.md, the job summary,
 * the PR comment): it marks the text as tracegate's report, and no rendered
 * model reply can forge it (escape.ts). It is not what finds the sticky
 * comment: that is `commentMarker(name)` (github/reporter.ts), the line put
 * above the report in the comment, which carries the run's name so that each
 * named run keeps its own comment.
 */
export const COMMENT_MARKER = '<!-- tracegate:report -->';

/** What the report shows beyond the run itself. */
export interface ReportContext {
  /** The history's rows (this run's own row merged in) for the trend chart. */
  trend?: TrendOptions & { rows: readonly IndexRow[] };
}

function acceptedLine(results: Results, comparison: Comparison): string[] {
  const a = results.accepted;
  if (!a || comparison.verdict !== 'fail') return [];
  return [
    '',
    `🟣 **Regression accepted** by the label ${codeSpan(a.label)}${a.note ? ` (${escapeMarkdown(a.note)})` : ''}: ` +
      'the check is neutral and the job passes; the acceptance is recorded in the history.',
  ];
}

function variantsLine(results: Results): string[] {
  const v = results.variants;
  if (!v) return [];
  const dropped = Object.entries(v.dropped)
    .map(([rule, n]) => `${rule} ×${n}`)
    .join(', ');
  return [
    '',
    `**Fresh variants** (epoch ${v.epoch}, ${v.mode === 'only' ? 'instead of the instances' : 'beside the instances'}): ` +
      `${v.valid} of ${v.tried} valid and asked${dropped ? `; dropped: ${dropped}` : ''}. ` +
      'They pair only with runs of the same epoch.' +
      (results.summary.variantComplexity
        ? ` Complexity (0–10, median): variants ${results.summary.variantComplexity.variant} against ` +
          `their originals' ${results.summary.variantComplexity.original} ` +
          `(${results.summary.variantComplexity.pairs} pair(s)).`
        : ''),
    ...memorisationLine(results),
  ];
}

/** Whether the model answers the published items better than their fresh variants. */
function memorisationLine(results: Results): string[] {
  const m = results.memorisation;
  if (!m) return [];
  const measured =
    `originals ${pct(m.original)} vs their variants ${pct(m.variant)} on ${m.pairs} pair(s), ` +
    `${pp(m.difference)}` +
    (m.lower !== undefined
      ? ` (${level(1 - m.level)} lower bound ${pp(m.lower)})`
      : ', too few to test');
  return [
    '',
    m.flagged
      ? `⚠️ **Possible contamination: the model answers the published items much better than fresh ones** — ${measured}.`
      : `**Memorisation:** no sign — ${measured}.`,
  ];
}

/**
 * The environments the oracles came from, a few by name, and each distinct runtime once (ten
 * environments on one substitute base image say so once, not ten times; all are in results.json).
 */
function environmentsText(results: Results): string {
  const all = results.harvest.environments ?? [];
  if (!all.length) return '';
  const named = all.slice(0, 3).map((e) => escapeMarkdown(e.name));
  if (all.length > named.length) named.push(`${all.length - named.length} more`);
  const runtimes = [...new Set(all.map((e) => e.runtime))].map(escapeMarkdown);
  return ` · environments ${named.join(', ')} (${runtimes.join('; ')})`;
}

/**
 * Replies that could not be read as an answer, this run against the baseline on the paired
 * items: flagged when this run has significantly more (its output format broke, which is not the
 * same as reasoning worse).
 */
function formatLine(c: Comparison): string[] {
  const f = c.format;
  if (!f) return [];
  const classes = Object.entries(f.byClass)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${escapeMarkdown(k)} ${v.candidate} / ${v.baseline}`)
    .join(', ');
  const p = f.pWorse < 0.0001 ? 'p < 0.0001' : `p = ${f.pWorse.toFixed(4)}`;
  return [
    '',
    `${f.flagged ? '⚠️ ' : ''}**Format:** ${f.candidate} of ${f.paired} paired replies could not be ` +
      `read as an answer, against ${f.baseline} in the baseline (${classes}: this run / baseline)` +
      (f.flagged
        ? ` — significantly more (${p}): the output format broke, which is not the same as reasoning worse.`
        : '.'),
  ];
}

/** The footer: how the gate decided and how the run was made, each fact once. */
function footer(results: Results, comparison: Comparison): string {
  const { summary, harvest } = results;
  const q = results.query;
  const asked = q
    ? ` · ${escapeMarkdown(q.api)}: ${q.answered} answered (${q.cacheHits} cached), ` +
      `${(q.meanLatencyMs / 1000).toFixed(2)} s mean, ${q.retries} retries`
    : '';
  const cost = results.cost
    ? `, $${results.cost.usd.toFixed(2)} at $${results.cost.price.input}/$${results.cost.price.output} per M`
    : '';
  const prompt = results.prompt
    ? ` (${escapeMarkdown(results.prompt.context)}, ${escapeMarkdown(results.prompt.budget)})`
    : '';
  return (
    `<sub>${policyLine(comparison)} · floor: the best constant answer on these items · ` +
    `oracles ${harvest.cached} cached, ${harvest.harvested} harvested (${harvest.backend})` +
    environmentsText(results) +
    asked +
    ` · tokens ${summary.tokensIn} in / ${summary.tokensOut} out${cost}` +
    ` · prompt ${results.promptVersion}${prompt} · scorer ${codeSpan(results.provenance.scorer)}</sub>`
  );
}

/**
 * The report shown in the PR comment, the job summary and report.md: the
 * headline (verdict, overall change and bounds, paired items, baseline), the
 * kinds that moved and the large drops too few items can decide, then
 * everything else collapsed or below, and a short footer.
 */
export function renderReport(
  results: Results,
  comparison: Comparison,
  context: ReportContext = {},
): string {
  const { summary } = results;
  const trend = context.trend ? renderTrend(context.trend.rows, context.trend) : '';
  const floors = Object.fromEntries(
    Object.entries(summary.byKind).map(([kind, s]) => [kind, s.chance?.accuracy]),
  );
  const lines = [
    COMMENT_MARKER,
    `## tracegate — ${escapeMarkdown(results.model.name)}${results.model.revision ? ` @ ${codeSpan(results.model.revision)}` : ''}`,
    '',
    headline(comparison, summary),
    ...reasonLine(comparison),
    ...acceptedLine(results, comparison),
    ...movesSection(comparison, floors),
    ...formatLine(comparison),
    '',
    `<details><summary>All kinds: this run ${pct(summary.accuracy)} (${summary.correct}/${summary.total})</summary>`,
    '',
    ...comparisonTable(comparison, { overall: summary, byKind: summary.byKind }),
    '',
    '</details>',
    ...complexitySection(results),
    ...toolsSection(results),
    ...variantsLine(results),
    ...worldSection(results),
    ...cometSection(results),
    ...comparisonDetails(comparison),
    ...flippedSection(results, comparison),
    ...(trend ? ['', '**Trend**', '', trend] : []),
  ];
  // With a baseline, the format line says it paired; without one, the counts alone.
  const errorEntries = Object.entries(summary.errors).filter(([k]) => !k.startsWith('harvest_'));
  if (errorEntries.length && !comparison.format) {
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
      `**pass@${q.samples}: ${pct(q.passAtK)}** (the score above is the majority of ${q.samples} samples; ` +
        'the gate compares per-item success rates over the samples)',
    );
  }
  lines.push('', footer(results, comparison), '');
  return lines.join('\n');
}
