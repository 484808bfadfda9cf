/**
 * One SVG line chart of accuracy per commit, with its intervals, as a string:
 * the dashboard's building block. Pure; every string that reaches the markup
 * is escaped.
 */

/** Escapes text for HTML and SVG, in element content and in quoted attributes alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One point of a series: a commit's accuracy (0–1), or undefined where the kind was not run. */
export interface ChartPoint {
  value: number | undefined;
  /** The point's tooltip. */
  title: string;
  /** Extra class of the point's marker (e.g. `verdict-fail`); already safe. */
  marker?: string;
  /** The accuracy's interval (0–1): a whisker at the point, inside a band along the line. */
  interval?: [number, number];
  /** Where a click on the point leads inside the page (e.g. `#commit-…`, the commit's row). */
  href?: string;
  /** Off the main line (dashboard-line.ts): drawn as a ring the line and band pass by. */
  apart?: boolean;
}

export interface ChartSpec {
  /** The series' id (data-series), e.g. `overall` or a kind. */
  series: string;
  points: ChartPoint[];
  /** The x-axis labels (short shas), one per point; drawn only when `labels` is set. */
  labels?: string[];
  width: number;
  height: number;
  /** Left, right, top, bottom. */
  margin: [number, number, number, number];
  /** The line's colour. */
  colour: string;
  /** The chart's accessible name. */
  label: string;
}

const fixed = (n: number) => n.toFixed(1);

const drawn = (p: ChartPoint): p is ChartPoint & { value: number } =>
  p.value !== undefined && Number.isFinite(p.value);
const banded = (p: ChartPoint): p is ChartPoint & { interval: [number, number] } =>
  drawn(p) && p.interval !== undefined && p.interval.every(Number.isFinite);

/**
 * The chart: gridlines at 0, 25, 50, 75, 100 %, a band through the intervals
 * of consecutive points (broken where a point has none), a whisker per
 * interval, a line through the points that have a value (a gap where a kind
 * was not run), a marker per point with its tooltip, and optionally the
 * commits under the x-axis.
 */
export function lineChart(spec: ChartSpec): string {
  const { points, width, height } = spec;
  const [left, right, top, bottom] = spec.margin;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const n = points.length;
  const x = (i: number) => left + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v: number) => top + (1 - Math.min(1, Math.max(0, v))) * plotH;

  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (v) =>
      `<line class="grid" x1="${left}" x2="${width - right}" y1="${fixed(y(v))}" y2="${fixed(y(v))}"/>` +
      `<text class="tick" x="${left - 4}" y="${fixed(y(v) + 3)}" text-anchor="end">${v * 100}%</text>`,
  );

  // The line and its band go through the points on the line; a point apart neither joins nor breaks them.
  const onLine = points.flatMap((p, i) => (p.apart ? [] : [i]));
  let d = '';
  let pen = false;
  for (const i of onLine) {
    const p = points[i]!;
    if (!drawn(p)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${fixed(x(i))} ${fixed(y(p.value))}`;
    pen = true;
  }

  // A band per run of consecutive points with an interval: upper bounds forward, lower back.
  const runs: number[][] = [];
  onLine.forEach((i, k) => {
    if (!banded(points[i]!)) return;
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] === onLine[k - 1]) run.push(i);
    else runs.push([i]);
  });
  const bound = (i: number, side: 0 | 1) => fixed(y(points[i]!.interval![side]));
  const bands = runs
    .filter((run) => run.length > 1)
    .map((run) => {
      const upper = run.map((i, k) => `${k ? 'L' : 'M'}${fixed(x(i))} ${bound(i, 1)}`);
      const lower = [...run].reverse().map((i) => `L${fixed(x(i))} ${bound(i, 0)}`);
      return `<path class="band" d="${upper.join('')}${lower.join('')}Z"/>`;
    });
  const whiskers = points.flatMap((p, i) =>
    banded(p)
      ? [
          `<line class="whisker" x1="${fixed(x(i))}" x2="${fixed(x(i))}" y1="${bound(i, 1)}" y2="${bound(i, 0)}"/>`,
        ]
      : [],
  );

  const markers = points.flatMap((p, i) => {
    if (!drawn(p)) return [];
    const classes = ['point', ...(p.marker ? [p.marker] : []), ...(p.apart ? ['apart'] : [])];
    const circle =
      `<circle class="${classes.join(' ')}" cx="${fixed(x(i))}" cy="${fixed(y(p.value))}" r="3.5">` +
      `<title>${escapeHtml(p.title)}</title></circle>`;
    return [p.href ? `<a href="${escapeHtml(p.href)}">${circle}</a>` : circle];
  });

  // At most ~40 commit labels: every k-th one when there are more.
  const every = Math.max(1, Math.ceil(n / 40));
  const labels = (spec.labels ?? [])
    .map((label, i) =>
      i % every !== 0 && i !== n - 1
        ? ''
        : `<text class="commit" text-anchor="end" transform="translate(${fixed(x(i) + 3)} ${height - bottom + 12}) rotate(-45)">${escapeHtml(label)}</text>`,
    )
    .filter(Boolean);

  // One element a line, so a reviewed rendering diffs point by point.
  return [
    `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
      `role="img" aria-label="${escapeHtml(spec.label)}" xmlns="http://www.w3.org/2000/svg">`,
    ...grid,
    `<g class="series" data-series="${escapeHtml(spec.series)}" data-points="${markers.length}" ` +
      `data-intervals="${whiskers.length}" style="color:${escapeHtml(spec.colour)}">`,
    ...bands,
    ...whiskers,
    ...(d ? [`<path class="line" d="${d}"/>`] : []),
    ...markers,
    '</g>',
    ...labels,
    '</svg>',
  ].join('\n');
}
