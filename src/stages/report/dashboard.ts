import type { IndexRow } from '../../contracts/history.js';
import { QUESTION_KINDS } from '../../contracts/kinds.js';
import { escapeHtml, lineChart, type ChartPoint } from './dashboard-chart.js';

/**
 * The history as one static HTML page: per run name, a chart of overall
 * accuracy per commit with the gate's verdict on each point, a small chart
 * per kind on the same commits, and the table of runs. Self-contained: inline
 * SVG and CSS, no script, no network (its CSP forbids any fetch). Pure: rows in,
 * a string out; every string from the history is escaped.
 */

export interface DashboardOptions {
  /** Shown in the title, e.g. `acme/models`. */
  repository?: string;
  /** Commits shown per run name, the newest (default 200). */
  last?: number;
  /** When the page was made; left out by default so one history always renders one page. */
  generatedAt?: string;
}

const VERDICTS = new Set(['pass', 'fail', 'inconclusive', 'no-baseline', 'baseline-unavailable']);
const COLOURS = ['#0969da', '#8250df', '#bf3989', '#1b7c83', '#9a6700', '#cf222e', '#116329'];

const short = (sha: string) => sha.slice(0, 7);
const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The marker class of a row's verdict (a class name is never taken from the data). */
function verdictClass(row: IndexRow): string | undefined {
  if (row.accepted) return 'verdict-accepted';
  if (!row.verdict) return undefined;
  return VERDICTS.has(row.verdict) ? `verdict-${row.verdict}` : 'verdict-other';
}

function verdictText(row: IndexRow): string {
  return `${row.verdict ?? 'no verdict'}${row.accepted ? ' (accepted)' : ''}`;
}

function tooltip(row: IndexRow, value: number, what: string): string {
  return (
    `${short(row.commit)}${row.branch ? ` on ${row.branch}` : ''} · ${row.recordedAt} · ` +
    `${what} ${percent(value)} · ${verdictText(row)} · ${row.model}${row.revision ? `@${row.revision}` : ''}`
  );
}

/** Known kinds in the taxonomy's order, then any other, alphabetically. */
function kindsOf(rows: readonly IndexRow[]): string[] {
  const seen = new Set(rows.flatMap((r) => Object.keys(r.byKind)));
  const known = QUESTION_KINDS.filter((k) => seen.has(k));
  const other = [...seen].filter((k) => !(QUESTION_KINDS as readonly string[]).includes(k)).sort();
  return [...known, ...other];
}

function runSection(name: string, rows: IndexRow[]): string {
  const labels = rows.map((r) => short(r.commit));
  const overall: ChartPoint[] = rows.map((r) => ({
    value: r.accuracy,
    title: tooltip(r, r.accuracy, `overall (${r.total} items)`),
    ...(verdictClass(r) ? { marker: verdictClass(r) } : {}),
  }));
  const main = lineChart({
    series: 'overall',
    points: overall,
    labels,
    width: 960,
    height: 300,
    margin: [44, 16, 12, 64],
    colour: '#24292f',
    label: `${name}: overall accuracy per commit`,
  });
  const kinds = kindsOf(rows).map((kind, i) => {
    const points = rows.map((r) => {
      const value = r.byKind[kind];
      return { value, title: value === undefined ? '' : tooltip(r, value, kind) };
    });
    const latest = [...points].reverse().find((p) => p.value !== undefined)?.value;
    const chart = lineChart({
      series: kind,
      points,
      width: 300,
      height: 130,
      margin: [36, 8, 8, 10],
      colour: COLOURS[i % COLOURS.length]!,
      label: `${name}: ${kind} accuracy per commit`,
    });
    return (
      `<figure class="kind"><figcaption>${escapeHtml(kind)}` +
      `${latest === undefined ? '' : ` <span class="latest">${percent(latest)}</span>`}</figcaption>${chart}</figure>`
    );
  });
  const newest = rows[rows.length - 1]!;
  const table = [...rows]
    .reverse()
    .map(
      (r) =>
        `<tr><td><code>${escapeHtml(short(r.commit))}</code></td><td>${escapeHtml(r.branch ?? '')}</td>` +
        `<td>${escapeHtml(r.recordedAt)}</td><td>${escapeHtml(r.model)}${r.revision ? `@${escapeHtml(r.revision)}` : ''}</td>` +
        `<td class="num">${r.total}</td><td class="num">${percent(r.accuracy)}</td>` +
        `<td class="${verdictClass(r) ?? ''}">${escapeHtml(verdictText(r))}</td></tr>`,
    )
    .join('\n');
  return `<section class="run" data-run="${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
<p class="summary">${rows.length} commit(s); latest <code>${escapeHtml(short(newest.commit))}</code>: ${percent(newest.accuracy)} of ${newest.total} items, ${escapeHtml(verdictText(newest))}.</p>
<figure class="overall"><figcaption>Overall accuracy per commit</figcaption>${main}</figure>
<div class="kinds">${kinds.join('\n')}</div>
<details><summary>Runs (newest first)</summary>
<table><thead><tr><th>commit</th><th>branch</th><th>recorded</th><th>model</th><th>items</th><th>accuracy</th><th>verdict</th></tr></thead>
<tbody>
${table}
</tbody></table></details>
</section>`;
}

const STYLE = `body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#24292f;margin:24px auto;max-width:1000px;padding:0 16px}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
figure{margin:8px 0}figcaption{font-weight:600;font-size:13px}.latest{font-weight:400;color:#57606a}
.kinds{display:flex;flex-wrap:wrap;gap:8px 16px}
.chart .grid{stroke:#d0d7de;stroke-width:1}.chart .tick,.chart .commit{font-size:10px;fill:#57606a;font-family:ui-monospace,monospace}
.series .line{fill:none;stroke:currentColor;stroke-width:2}.series .point{fill:currentColor;stroke:#fff;stroke-width:1}
.point.verdict-pass{fill:#1a7f37}.point.verdict-fail{fill:#cf222e}.point.verdict-inconclusive{fill:#bf8700}
.point.verdict-no-baseline,.point.verdict-other{fill:#8c959f}.point.verdict-accepted{fill:#8250df}
td.verdict-pass{color:#1a7f37}td.verdict-fail{color:#cf222e}td.verdict-accepted{color:#8250df}
.legend span{margin-right:12px}.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:-1px}
table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #eaeef2;text-align:left}td.num{text-align:right}`;

const LEGEND =
  '<p class="legend">Verdict of each commit: ' +
  '<span><i style="background:#1a7f37"></i>pass</span><span><i style="background:#cf222e"></i>fail</span>' +
  '<span><i style="background:#bf8700"></i>inconclusive</span><span><i style="background:#8c959f"></i>no baseline</span>' +
  '<span><i style="background:#8250df"></i>regression accepted by label</span></p>';

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
