import type { FlippedRow, IndexRow } from '../../contracts/history.js';
import { escapeHtml } from './dashboard-chart.js';
import {
  intervalText,
  kindMeasure,
  measureText,
  overallMeasure,
  percent,
  short,
  type Measure,
} from './dashboard-measure.js';
import { verdictBadge } from './dashboard-palette.js';

/**
 * The table of a run's commits, newest first: per commit its verdict (a
 * coloured word), overall and per-kind accuracy with the items scored, and
 * the items that flipped against its baseline in a `<details>` of its row.
 * Each row's id is the target of the commit's point in the overall chart.
 */

/** The id of a commit's row (the overall chart's points link to it). */
export const commitAnchor = (name: string, commit: string): string => `commit-${name}-${commit}`;

/** A header that may wrap inside a long kind name: after `_` and between words of camel case. */
const breakable = (text: string): string =>
  escapeHtml(text)
    .replace(/_/g, '_<wbr>')
    .replace(/([a-z])([A-Z])/g, '$1<wbr>$2');

/** `2026-12-01 02:00 UTC` for an ISO instant (the full one in the title); anything else as it is. */
function when(recordedAt: string): string {
  const iso = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)[\d:.]*Z$/.exec(recordedAt);
  return iso ? `${iso[1]} ${iso[2]} UTC` : recordedAt;
}

/** A cell with an accuracy: the value, then its interval and n on a second line. */
function measureCell(m: Measure | undefined, withInterval: boolean): string {
  if (!m) return '<td class="num none">—</td>';
  const under = [withInterval ? intervalText(m) : '', m.n === undefined ? '' : `n=${m.n}`]
    .filter(Boolean)
    .join(' ');
  return (
    `<td class="num" title="${escapeHtml(measureText(m))}">${percent(m.value)}` +
    `${under ? `<br><small>${escapeHtml(under)}</small>` : ''}</td>`
  );
}

function flippedItems(
  items: FlippedRow['lost'],
  total: number,
  how: string,
  more: string,
): string[] {
  const lines = items.map(
    (item) =>
      `<li><code>${escapeHtml(item.id)}</code> <span class="kind">${escapeHtml(item.kind ?? 'kind unknown')}</span> ${how}</li>`,
  );
  if (total > items.length)
    lines.push(
      `<li class="more">… and ${total - items.length} more ${more} (the entry's results)</li>`,
    );
  return lines;
}

/** The flipped items' cell: a count, and the items behind a click. */
function flippedCell(row: IndexRow): string {
  const f = row.flipped;
  if (!f) {
    const why = row.verdict === 'no-baseline' ? 'no baseline' : 'not recorded';
    return `<td class="flipped none">${why}</td>`;
  }
  if (f.lostTotal + f.gainedTotal === 0) return '<td class="flipped none">none</td>';
  const summary = [
    f.lostTotal ? `${f.lostTotal} regressed` : '',
    f.gainedTotal ? `${f.gainedTotal} fixed` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [
    `<td class="flipped"><details><summary>${summary}</summary>`,
    f.baseline ? `<p>vs baseline <code>${escapeHtml(short(f.baseline))}</code></p>` : '',
    '<ul>',
    ...flippedItems(f.lost, f.lostTotal, 'right → wrong', 'regressed'),
    ...flippedItems(f.gained, f.gainedTotal, 'wrong → right', 'fixed'),
    '</ul></details></td>',
  ].join('\n');
}

/** The commits table of one run (rows oldest first, as drawn; shown newest first), rows apart from the line said so. */
export function commitsTable(
  name: string,
  rows: readonly IndexRow[],
  kinds: string[],
  apart: ReadonlyMap<IndexRow, string> = new Map(),
): string {
  const head = ['commit', 'branch', 'model', 'verdict', 'overall', ...kinds, 'flipped vs baseline']
    .map((h) => `<th>${breakable(h)}</th>`)
    .join('');
  const body = [...rows]
    .reverse()
    .map((r) =>
      [
        `<tr id="${escapeHtml(commitAnchor(name, r.commit))}">`,
        `<td class="commit" title="${escapeHtml(r.recordedAt)}"><code>${escapeHtml(short(r.commit))}</code>` +
          `<br><small>${escapeHtml(when(r.recordedAt))}</small></td>`,
        `<td class="text">${escapeHtml(r.branch ?? '')}</td>`,
        `<td class="text model">${escapeHtml(r.model)}${r.revision ? `@${escapeHtml(r.revision)}` : ''}</td>`,
        `<td>${verdictBadge(r)}${apart.has(r) ? `<br><small class="apart">off the main line: ${escapeHtml(apart.get(r)!)}</small>` : ''}</td>`,
        measureCell(overallMeasure(r), true),
        ...kinds.map((kind) => measureCell(kindMeasure(r, kind), false)),
        flippedCell(r),
        '</tr>',
      ].join(''),
    );
  return [
    '<div class="scroll"><table class="commits">',
    `<thead><tr>${head}</tr></thead>`,
    '<tbody>',
    ...body,
    '</tbody></table></div>',
  ].join('\n');
}
