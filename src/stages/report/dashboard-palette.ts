import type { IndexRow } from '../../contracts/history.js';
import { escapeHtml } from './dashboard-chart.js';

/**
 * The dashboard's two sets of colours, kept apart: a verdict's colour means
 * pass, fail or neither; a kind's colour only tells one small chart from the
 * next. No kind is drawn in a verdict's colour or hue, so a kind drawn red
 * can never read as a failure, and every verdict is also written as a word.
 */

/** The gate's verdicts as every GitHub surface colours them (the comment, the check). */
export const VERDICT_COLOURS = {
  pass: '#1a7f37',
  fail: '#cf222e',
  inconclusive: '#bf8700',
  /** No baseline, baseline unavailable, a verdict this version does not know. */
  neutral: '#8c959f',
  /** A failure accepted by the override label. */
  accepted: '#8250df',
} as const;

/**
 * Kinds: Okabe–Ito's blue, reddish purple and sky blue, a dark cyan and Paul
 * Tol's purple — colour-blind-safe hues at least 25° from every verdict's
 * (no red, green, amber or violet; no grey), cycled when there are more kinds.
 */
export const KIND_COLOURS = ['#0072B2', '#CC79A7', '#008B8B', '#56B4E9', '#AA4499'] as const;

/** The overall accuracy's line: neither a verdict nor a kind. */
export const OVERALL_COLOUR = '#24292f';

/** The colour of the i-th kind of a run. */
export const kindColour = (i: number): string => KIND_COLOURS[i % KIND_COLOURS.length]!;

/** The verdict classes the stylesheet knows, and the colour each is drawn in. */
const CLASSES: Record<string, string> = {
  pass: VERDICT_COLOURS.pass,
  fail: VERDICT_COLOURS.fail,
  inconclusive: VERDICT_COLOURS.inconclusive,
  'no-baseline': VERDICT_COLOURS.neutral,
  'baseline-unavailable': VERDICT_COLOURS.neutral,
  other: VERDICT_COLOURS.neutral,
  accepted: VERDICT_COLOURS.accepted,
};

/** The class of a row's verdict (a class name is never taken from the data). */
export function verdictClass(row: IndexRow): string | undefined {
  if (row.accepted) return 'verdict-accepted';
  if (!row.verdict) return undefined;
  return row.verdict in CLASSES ? `verdict-${row.verdict}` : 'verdict-other';
}

/** The verdict as words: the colour is never its only sign. */
export function verdictText(row: IndexRow): string {
  return `${row.verdict ?? 'no verdict'}${row.accepted ? ' (accepted)' : ''}`;
}

/** The verdict as a badge: a dot in its colour and its word. */
export function verdictBadge(row: IndexRow): string {
  return `<span class="verdict ${verdictClass(row) ?? 'verdict-none'}"><i></i>${escapeHtml(verdictText(row))}</span>`;
}

/** The verdicts' rules: chart markers and badges, from VERDICT_COLOURS alone. */
export const VERDICT_STYLE = Object.entries(CLASSES)
  .map(
    ([name, colour]) =>
      `.point.verdict-${name},.verdict.verdict-${name} i{fill:${colour};background:${colour}}`,
  )
  .join('\n');

/** What the colours and bands mean, once above the runs. */
export const LEGEND = [
  '<p class="legend">Verdict of each commit: ',
  ...(
    [
      ['pass', 'pass'],
      ['fail', 'fail'],
      ['inconclusive', 'inconclusive'],
      ['no-baseline', 'no baseline'],
      ['accepted', 'regression accepted by label'],
    ] as const
  ).map(([name, text]) => `<span class="verdict verdict-${name}"><i></i>${text}</span>`),
  '<br>Shaded bands and whiskers: the 95% (Wilson) interval of each accuracy; ',
  '<i>n</i>: the items scored. Kinds are drawn in colours no verdict uses. ',
  'Ringed points are off the main line (a candidate the gate rejected, another branch): ',
  'the line passes them by.</p>',
].join('');
