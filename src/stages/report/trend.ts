import type { IndexRow } from '../../contracts/history.js';
import { QUESTION_KINDS } from '../../contracts/kinds.js';
import { apartRows } from './dashboard-line.js';

/**
 * The trend of the last N commits for the PR comment, as mermaid
 * `xychart-beta` blocks (GitHub renders them): overall accuracy, then one
 * chart per kind in a collapsed section: the main line (dashboard-line.ts), the newest row
 * (this run's) last whatever it is. Pure: index rows in, markdown out.
 */

export interface TrendOptions {
  /** The run name whose series is drawn. */
  name: string;
  /** Commits shown, the newest (default 10). */
  last?: number;
  /** Only this branch's rows (and rows of no branch): a PR's trend is its base branch's. */
  branch?: string;
}

/**
 * A label as mermaid and markdown both take it literally: only letters,
 * digits, space and `. , _ : @ / + ( ) -`; anything else (a quote that would
 * end the string, a backtick that could close the fence, a line break, `<`)
 * becomes `_`.
 */
export function mermaidLabel(text: string, max = 60): string {
  return text.replace(/[^A-Za-z0-9 .,_:@/+()-]/g, '_').slice(0, max);
}

function chart(title: string, commits: string[], values: number[]): string {
  const x = commits.map((c) => `"${mermaidLabel(c.slice(0, 7))}"`).join(', ');
  const line = values.map((v) => (v * 100).toFixed(1)).join(', ');
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${mermaidLabel(title, 100)}"`,
    `  x-axis [${x}]`,
    '  y-axis "accuracy %" 0 --> 100',
    `  line [${line}]`,
    '```',
  ].join('\n');
}

function ordered(rows: readonly IndexRow[]): IndexRow[] {
  return rows
    .map((r, i) => ({ r, i, t: Date.parse(r.recordedAt) }))
    .sort((a, b) => (a.t === b.t || Number.isNaN(a.t - b.t) ? a.i - b.i : a.t - b.t))
    .map(({ r }) => r);
}

/**
 * The trend section, or '' when the run has no history yet. Pass the rows
 * with the candidate's own row merged in (`mergeRow(rows, indexRow(entry))`)
 * to show this commit as the last point.
 */
export function renderTrend(rows: readonly IndexRow[], options: TrendOptions): string {
  const last = Math.max(1, options.last ?? 10);
  const ofName = ordered(
    rows.filter(
      (r) =>
        r.name === options.name &&
        (options.branch === undefined || r.branch === undefined || r.branch === options.branch),
    ),
  );
  // The main line, as the dashboard draws it (no rejected candidate), and this run's own row last.
  const apart = apartRows(ofName);
  const shown = ofName.filter((r, i) => !apart.has(r) || i === ofName.length - 1).slice(-last);
  if (!shown.length) return '';
  const name = mermaidLabel(options.name, 64);
  const overall = chart(
    `${name}: overall accuracy, last ${shown.length} commit(s)`,
    shown.map((r) => r.commit),
    shown.map((r) => r.accuracy),
  );
  const seen = new Set(shown.flatMap((r) => Object.keys(r.byKind)));
  const kinds = [
    ...QUESTION_KINDS.filter((k) => seen.has(k)),
    ...[...seen].filter((k) => !(QUESTION_KINDS as readonly string[]).includes(k)).sort(),
  ];
  const perKind = kinds.map((kind) => {
    // A kind not run at a commit has no point there (mermaid lines cannot have gaps).
    const at = shown.filter((r) => r.byKind[kind] !== undefined);
    return chart(
      `${mermaidLabel(kind)}: last ${at.length} commit(s)`,
      at.map((r) => r.commit),
      at.map((r) => r.byKind[kind]!),
    );
  });
  return [
    overall,
    '',
    '<details><summary>Trend per kind</summary>',
    '',
    perKind.join('\n\n'),
    '',
    '</details>',
    '',
  ].join('\n');
}
