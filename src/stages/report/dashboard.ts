import type { IndexRow } from '../../contracts/history.js';
import { QUESTION_KINDS } from '../../contracts/kinds.js';
import { escapeHtml, lineChart, type ChartPoint } from './dashboard-chart.js';
import { commitAnchor, commitsTable } from './dashboard-commits.js';
import { apartRows } from './dashboard-line.js';
import {
  kindMeasure,
  measureText,
  overallMeasure,
  short,
  type Measure,
} from './dashboard-measure.js';
import {
  kindColour,
  LEGEND,
  OVERALL_COLOUR,
  VERDICT_STYLE,
  verdictBadge,
  verdictClass,
  verdictText,
} from './dashboard-palette.js';

/**
 * The history as one static HTML page: per run name, a chart of overall
 * accuracy per commit with its interval band and the gate's verdict on each
 * point, a small chart per kind on the same commits (its own colour, never a
 * verdict's), and the table of commits with their verdicts, per-kind item
 * counts and flipped items. Self-contained: inline SVG and CSS, no script, no
 * network (its CSP forbids any fetch). Pure: rows in, a string out; every
 * string from the history is escaped.
 */

export interface DashboardOptions {
  /** Shown in the title, e.g. `acme/models`. */
  repository?: string;
  /** Commits shown per run name, the newest (default 200). */
  last?: number;
  /** When the page was made; left out by default so one history always renders one page. */
  generatedAt?: string;
}

function tooltip(row: IndexRow, m: Measure, what: string): string {
  return (
    `${short(row.commit)}${row.branch ? ` on ${row.branch}` : ''} · ${row.recordedAt} · ` +
    `${what} ${measureText(m)} · ${verdictText(row)} · ${row.model}${row.revision ? `@${row.revision}` : ''}`
  );
}

/** A chart point of a measure: its value, interval and tooltip; apart from the line, and why. */
function point(row: IndexRow, m: Measure, what: string, apart?: string): ChartPoint {
  return {
    value: m.value,
    title: tooltip(row, m, what) + (apart ? ` · off the main line: ${apart}` : ''),
    ...(m.interval ? { interval: m.interval } : {}),
    ...(apart ? { apart: true } : {}),
  };
}

/** Known kinds in the taxonomy's order, then any other, alphabetically. */
function kindsOf(rows: readonly IndexRow[]): string[] {
  const seen = new Set(rows.flatMap((r) => Object.keys(r.byKind)));
  const known = QUESTION_KINDS.filter((k) => seen.has(k));
  const other = [...seen].filter((k) => !(QUESTION_KINDS as readonly string[]).includes(k)).sort();
  return [...known, ...other];
}

/** `6 pass, 1 fail, …`: how many commits had each verdict, in order of first appearance. */
function verdictCounts(rows: readonly IndexRow[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(verdictText(r), (counts.get(verdictText(r)) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n} ${escapeHtml(v)}`).join(', ');
}

function kindFigure(
  name: string,
  kind: string,
  i: number,
  rows: IndexRow[],
  apart: Map<IndexRow, string>,
): string {
  const measures = rows.map((r) => kindMeasure(r, kind));
  const points = rows.map((r, k) =>
    measures[k] ? point(r, measures[k], kind, apart.get(r)) : { value: undefined, title: '' },
  );
  const latest = [...measures].reverse().find((m) => m !== undefined);
  const colour = kindColour(i);
  const chart = lineChart({
    series: kind,
    points,
    width: 300,
    height: 130,
    margin: [36, 8, 8, 10],
    colour,
    label: `${name}: ${kind} accuracy per commit`,
  });
  return (
    `<figure class="kind"><figcaption><i class="swatch" style="background:${colour}"></i>${escapeHtml(kind)}` +
    `${latest ? ` <span class="latest">${escapeHtml(measureText(latest))}</span>` : ''}</figcaption>${chart}</figure>`
  );
}

/** `; 2 off the main line (hollow points): …` when any row is apart from the line. */
function apartNote(apart: Map<IndexRow, string>): string {
  if (!apart.size) return '';
  const counts = new Map<string, number>();
  for (const why of apart.values()) {
    const key = why.replace(/^on branch .*/, 'on other branches');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const whys = [...counts].map(([why, n]) => `${n} ${escapeHtml(why)}`).join(', ');
  return ` ${apart.size} off the main line (ringed points the line passes by): ${whys}.`;
}

function runSection(name: string, rows: IndexRow[]): string {
  const apart = apartRows(rows);
  const overall: ChartPoint[] = rows.map((r) => {
    const marker = verdictClass(r);
    return {
      ...point(r, overallMeasure(r), 'overall', apart.get(r)),
      href: `#${commitAnchor(name, r.commit)}`,
      ...(marker ? { marker } : {}),
    };
  });
  const main = lineChart({
    series: 'overall',
    points: overall,
    labels: rows.map((r) => short(r.commit)),
    width: 960,
    height: 300,
    margin: [44, 16, 12, 64],
    colour: OVERALL_COLOUR,
    label: `${name}: overall accuracy per commit`,
  });
  const kinds = kindsOf(rows);
  const newest = rows[rows.length - 1]!;
  return `<section class="run" data-run="${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
<p class="summary">${rows.length} commit(s): ${verdictCounts(rows)}.${apartNote(apart)} Latest <code>${escapeHtml(short(newest.commit))}</code>: ${escapeHtml(measureText(overallMeasure(newest)))} ${verdictBadge(newest)}</p>
<figure class="overall"><figcaption>Overall accuracy per commit (click a point for its row)</figcaption>${main}</figure>
<div class="kinds">${kinds.map((kind, i) => kindFigure(name, kind, i, rows, apart)).join('\n')}</div>
<h3>Commits (newest first)</h3>
${commitsTable(name, rows, kinds, apart)}
</section>`;
}

const STYLE = `body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#24292f;margin:24px auto;max-width:1200px;padding:0 16px}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:16px 0 4px}
figure{margin:8px 0}figcaption{font-weight:600;font-size:13px}.latest{font-weight:400;color:#57606a}
.kinds{display:flex;flex-wrap:wrap;gap:8px 16px}.swatch{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
.chart .grid{stroke:#d0d7de;stroke-width:1}.chart .tick,.chart .commit{font-size:10px;fill:#57606a;font-family:ui-monospace,monospace}
.series .line{fill:none;stroke:currentColor;stroke-width:2}.series .point{fill:currentColor;stroke:#fff;stroke-width:1}
.series .point.apart{stroke:currentColor;stroke-width:1.5;stroke-dasharray:2 1.5;fill-opacity:.45}
.series .band{fill:currentColor;fill-opacity:.13;stroke:none}.series .whisker{stroke:currentColor;stroke-opacity:.45;stroke-width:1.5}
${VERDICT_STYLE}
.verdict{white-space:nowrap}.verdict i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:-1px}
.legend .verdict{margin-right:12px}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:13px}
td,th{padding:2px 6px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top;overflow-wrap:break-word}
td.text{overflow-wrap:anywhere;min-width:4em}td.model{min-width:8em}
td.num{text-align:right;white-space:nowrap}td small{color:#57606a}td.none{color:#8c959f}td.commit{white-space:nowrap}
tr:target{background:#fff8c5}td.flipped{min-width:15em}td.flipped summary{cursor:pointer;white-space:nowrap}
td.flipped ul{margin:4px 0;padding-left:16px}td.flipped p{margin:4px 0}td.flipped .kind{color:#57606a}`;

/** The dashboard page for the rows of a history index (any order; several run names). */
export function renderDashboard(rows: readonly IndexRow[], options: DashboardOptions = {}): string {
  const last = Math.max(1, options.last ?? 200);
  const names = [...new Set(rows.map((r) => r.name))].sort();
  const sections = names.map((name) => {
    const ofName = rows
      .filter((r) => r.name === name)
      .map((r, i) => ({ r, i, t: Date.parse(r.recordedAt) }))
      .sort((a, b) => (a.t === b.t || Number.isNaN(a.t - b.t) ? a.i - b.i : a.t - b.t))
      .map(({ r }) => r);
    return runSection(name, ofName.slice(-last));
  });
  const title = `tracegate${options.repository ? ` — ${options.repository}` : ''}`;
  const body = sections.length
    ? `${LEGEND}\n${sections.join('\n')}`
    : '<p>No history yet: a run on a push to the base branch records the first entry.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}: accuracy per commit</h1>
${body}
${options.generatedAt ? `<p class="generated">Generated ${escapeHtml(options.generatedAt)}.</p>\n` : ''}</body>
</html>
`;
}
