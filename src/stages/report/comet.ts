import type { Results } from '../../contracts/results.js';
import type { CometSummary } from '../../families/comet/score.js';
import { codeSpan, escapeMarkdown } from './escape.js';

const pct = (x: number | undefined) => (x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);

/** B2 replies whose text parts the report shows (the first ones, in record order). */
const SHOWN_TEXTS = 5;
const TEXT_CHARS = 300;

/**
 * Comet's kinds beside their pass rates: B1's exposure rate and outcome
 * accuracy, why replies did not pass, and B2's precondition, postcondition
 * and explanation as the model wrote them (shown, never scored).
 */
export function cometSection(results: Results): string[] {
  const comet = results.summary.comet as Record<string, CometSummary> | undefined;
  if (!comet) return [];
  // Collapsed: the figures explain the pass rates; the gate decides on those.
  const lines = [
    '',
    "<details><summary>Bug reasoning (Comet's kinds): each reply was run against the buggy and the correct version</summary>",
    '',
    '| kind | replies run | passed | exposure | outcome accuracy | why not |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const [kind, s] of Object.entries(comet).sort()) {
    const why = Object.entries(s.reasons)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, n]) => `${reason} ×${n}`)
      .join(', ');
    lines.push(
      `| ${kind} | ${s.n} | ${s.passed} | ${pct(s.exposureRate)} | ${pct(s.outcomeAccuracy)} | ${escapeMarkdown(why || '—')} |`,
    );
  }
  const texts = results.instances.filter((r) => r.comet?.text).slice(0, SHOWN_TEXTS);
  if (texts.length) {
    lines.push(
      '',
      '<details><summary>B2: what the model said of the bug (not scored)</summary>',
      '',
    );
    for (const r of texts) {
      const t = r.comet!.text!;
      const cut = (s: string) =>
        escapeMarkdown(s.length > TEXT_CHARS ? s.slice(0, TEXT_CHARS) + '…' : s);
      lines.push(
        `- ${codeSpan(r.id)} (${r.correct ? 'passed' : escapeMarkdown(r.comet!.reason ?? 'not passed')}): ` +
          `precondition: ${cut(t.precondition) || '—'}; postcondition: ${cut(t.postcondition) || '—'}; ` +
          `why: ${cut(t.explanation) || '—'}`,
      );
    }
    lines.push('', '</details>');
  }
  lines.push('', '</details>');
  return lines;
}
