import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FLIPPED_IN_INDEX,
  indexRow,
  indexRowSchema,
  type IndexRow,
} from '../../src/contracts/history.js';
import { compareRuns } from '../../src/stages/compare/gate.js';
import { renderDashboard } from '../../src/stages/report/dashboard.js';
import {
  KIND_COLOURS,
  OVERALL_COLOUR,
  VERDICT_COLOURS,
} from '../../src/stages/report/dashboard-palette.js';
import { renderTrend } from '../../src/stages/report/trend.js';
import { wilson } from '../../src/stages/score/aggregate.js';
import { dashboardHistory, HOSTILE_ID } from '../helpers/dashboard-history.js';
import { dashboardRows, expectedPoints, HOSTILE_KIND } from '../helpers/history-rows.js';
import { entry, records, results, sha } from '../helpers/history.js';
import { expectFixture } from '../helpers/fixtures.js';

const RENDERED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'rendered');

const unescape = (text: string) =>
  text.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

interface Series {
  points: number;
  intervals: number;
  bands: number;
  colour: string;
}

/** Each series of a run's section: its markers (checked against data-points), whiskers, bands, colour. */
function seriesOf(html: string, run: string): Record<string, Series> {
  const section = html.split(`<section class="run" data-run="${run}">`)[1]!.split('</section>')[0]!;
  const found: Record<string, Series> = {};
  for (const m of section.matchAll(
    /<g class="series" data-series="([^"]*)" data-points="(\d+)" data-intervals="(\d+)" style="color:([^"]*)">([\s\S]*?)<\/g>/g,
  )) {
    const body = m[5]!;
    const circles = (body.match(/<circle /g) ?? []).length;
    const whiskers = (body.match(/<line class="whisker"/g) ?? []).length;
    expect(circles).toBe(Number(m[2]));
    expect(whiskers).toBe(Number(m[3]));
    found[unescape(m[1]!)] = {
      points: circles,
      intervals: whiskers,
      bands: (body.match(/<path class="band"/g) ?? []).length,
      colour: m[4]!,
    };
  }
  return found;
}

/** The table row of a commit of `tracegate`. */
function commitRow(html: string, label: string): string {
  const id = `commit-tracegate-${sha(label)}`;
  return html.split(`<tr id="${id}">`)[1]!.split('</tr>')[0]!;
}

/** Hue (degrees) and saturation (0–1, HSL) of `#rrggbb`. */
function hueOf(hex: string): { hue: number; saturation: number } {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  const l = (max + min) / 2;
  const saturation = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  if (d === 0) return { hue: 0, saturation };
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return { hue: (h * 60 + 360) % 360, saturation };
}

describe('the dashboard', () => {
  const rows = dashboardHistory();
  const html = renderDashboard(rows, { repository: 'acme/models' });

  it('matches the reviewed rendering', () => {
    expectFixture(join(RENDERED, 'dashboard.html'), html);
  });

  it('draws one point per commit per series, with the verdict on the overall points', () => {
    const points = (run: string) =>
      Object.fromEntries(Object.entries(seriesOf(html, run)).map(([k, s]) => [k, s.points]));
    expect(points('tracegate')).toEqual(expectedPoints(rows, 'tracegate'));
    expect(points('nightly')).toEqual(expectedPoints(rows, 'nightly'));
    expect((html.match(/class="point verdict-fail"/g) ?? []).length).toBe(1);
    expect((html.match(/class="point verdict-accepted"/g) ?? []).length).toBe(1);
    expect((html.match(/class="point verdict-other"/g) ?? []).length).toBe(1);
  });

  it('breaks the line where a kind was not run', () => {
    const s5 =
      /data-series="S5_Exceptions"[^>]*>\n(?:<(?:path class="band"|line class="whisker")[^>]*>\n)*<path class="line" d="([^"]+)"/.exec(
        html,
      )![1]!;
    expect(s5.match(/M/g)).toHaveLength(2);
  });

  it('draws kinds in a palette no verdict uses', () => {
    const verdicts = Object.values(VERDICT_COLOURS).map((c) => c.toLowerCase());
    const kinds = KIND_COLOURS.map((c) => c.toLowerCase());
    expect(kinds.filter((c) => verdicts.includes(c))).toEqual([]);
    expect(verdicts).not.toContain(OVERALL_COLOUR.toLowerCase());
    // Not only other codes: other hues, at least 25° from pass, fail, inconclusive and
    // accepted, and none grey (the neutral verdicts' colour).
    const chromatic = verdicts.filter((c) => hueOf(c).saturation > 0.3);
    expect(chromatic).toHaveLength(4);
    const tooClose = kinds.flatMap((k) =>
      chromatic.flatMap((v) => {
        const apart = Math.abs(hueOf(k).hue - hueOf(v).hue);
        return Math.min(apart, 360 - apart) < 25 ? [`${k} near ${v}`] : [];
      }),
    );
    expect(tooClose).toEqual([]);
    expect(kinds.filter((k) => hueOf(k).saturation <= 0.3)).toEqual([]);
    // And the page draws each kind in one of them, the overall line in its own colour.
    for (const run of ['tracegate', 'nightly']) {
      for (const [series, s] of Object.entries(seriesOf(html, run)))
        if (series === 'overall') expect(s.colour).toBe(OVERALL_COLOUR);
        else expect(KIND_COLOURS).toContain(s.colour);
    }
  });

  it('draws the interval of every accuracy whose counts the row keeps, and none for older rows', () => {
    const tracegate = seriesOf(html, 'tracegate');
    // Commits 2–11 keep counts (S5 not run at 4 and 5; the hostile kind from 9 on).
    expect(tracegate.overall).toMatchObject({ points: 12, intervals: 10, bands: 1 });
    expect(tracegate.S1_IntraProceduralCFG).toMatchObject({ points: 12, intervals: 10, bands: 1 });
    expect(tracegate.S5_Exceptions).toMatchObject({ points: 10, intervals: 8, bands: 2 });
    expect(tracegate[HOSTILE_KIND]).toMatchObject({ points: 3, intervals: 3, bands: 1 });
    expect(Object.values(seriesOf(html, 'nightly')).map((s) => s.intervals)).toEqual([0, 0]);
    // The failing commit's tooltip and cell: the Wilson interval of its counts, and n.
    const fail = rows[9]!;
    const [lo, hi] = wilson(fail.correct!, fail.total);
    const range = `[${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)}%]`;
    expect(html).toContain(`overall ${(fail.accuracy * 100).toFixed(1)}% ${range} n=${fail.total}`);
    expect(commitRow(html, 'main-9')).toContain(`<small>${range} n=${fail.total}</small>`);
  });

  it('shows the items scored per kind per commit in the table and the tooltips', () => {
    for (const [i, row] of rows.entries()) {
      if (row.name !== 'tracegate') continue;
      const cells = [
        ...commitRow(html, `main-${i}`).matchAll(
          /<td class="num"[^>]*>([^<]*)(?:<br><small>([^<]*)<\/small>)?<\/td>/g,
        ),
      ];
      // Overall, then one cell per kind the commit ran, in the header's order.
      const kinds = ['S1_IntraProceduralCFG', 'S2_Loops', 'S5_Exceptions', HOSTILE_KIND].filter(
        (k) => row.byKind[k] !== undefined,
      );
      expect(cells).toHaveLength(kinds.length + 1);
      kinds.forEach((kind, k) => {
        const n = row.byKindCounts?.[kind]?.total;
        expect(cells[k + 1]![2]).toBe(n === undefined ? undefined : `n=${n}`);
      });
    }
    expect(html).toContain(`S2_Loops ${((rows[9]!.byKind.S2_Loops ?? 0) * 100).toFixed(1)}% [`);
    expect(html).toMatch(/ · S2_Loops [\d.]+% \[[\d.]+–[\d.]+%\] n=10 \(\d+ right\) · fail · /);
  });

  it('gives each commit its verdict in words and its flipped items one click away', () => {
    const fail = commitRow(html, 'main-9');
    expect(fail).toContain('<span class="verdict verdict-fail"><i></i>fail</span>');
    expect(fail).toContain('<details><summary>3 regressed · 2 fixed</summary>');
    expect(fail).toContain(`vs baseline <code>${sha('main-8').slice(0, 7)}</code>`);
    expect(fail).toContain(
      '<li><code>S1-3</code> <span class="kind">S1_IntraProceduralCFG</span> right → wrong</li>',
    );
    expect(fail).toContain(
      '<li><code>S5-2</code> <span class="kind">S5_Exceptions</span> wrong → right</li>',
    );
    expect(fail).toContain(
      '<li><code>gone-7</code> <span class="kind">kind unknown</span> wrong → right</li>',
    );
    const capped = commitRow(html, 'main-3');
    expect(capped).toContain(
      '<span class="verdict verdict-accepted"><i></i>fail (accepted)</span>',
    );
    expect((capped.match(/right → wrong<\/li>/g) ?? []).length).toBe(20);
    expect(capped).toContain("… and 2 more regressed (the entry's results)");
    expect(capped).toContain("… and 2 more fixed (the entry's results)");
    expect(commitRow(html, 'main-5')).toContain('<td class="flipped none">none</td>');
    expect(commitRow(html, 'main-1')).toContain('<td class="flipped none">not recorded</td>');
    expect(commitRow(html, 'main-0')).toContain('<td class="flipped none">no baseline</td>');
    // The overall chart's point of a commit leads to its row.
    expect(html).toContain(
      `<a href="#commit-tracegate-${sha('main-9')}"><circle class="point verdict-fail"`,
    );
  });

  it('escapes every string from the history, and fetches nothing', () => {
    expect(html).not.toMatch(/<script|<img|<svg onload|<b>|<details open/i);
    expect(html).toContain('&#60;script&#62;alert(&#34;branch&#34;)&#60;/script&#62;');
    expect(html).toContain('&#60;/title&#62;&#60;img src=x onerror=alert(1)&#62;');
    // A hostile id and a hostile kind in a commit's flipped items stay text.
    expect(commitRow(html, 'main-9')).toContain(
      `<li><code>S2-&#34;&#62;&#60;img src=x onerror=alert(&#34;flip&#34;)&#62;&#60;details open&#62;</code> ` +
        '<span class="kind">S2_Loops</span> right → wrong</li>',
    );
    expect(unescape(commitRow(html, 'main-9'))).toContain(HOSTILE_ID);
    expect(commitRow(html, 'main-9')).toContain(
      '<code>bogus-1</code> <span class="kind">S9_Bogus&#34;&#62;&#60;svg onload=alert(1)&#62;```\n&#60;/details&#62;</span>',
    );
    // The only URL is the SVG namespace; the CSP forbids any request.
    expect([...html.matchAll(/\w+:\/\/[^"\s]*/g)].map((m) => m[0])).toEqual(
      Array((html.match(/<svg class="chart"/g) ?? []).length).fill('http://www.w3.org/2000/svg'),
    );
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('renders an empty history as a page that says how to start one', () => {
    expect(renderDashboard([])).toContain('No history yet: a run on a push');
  });

  it('shows only the newest commits asked for', () => {
    const page = renderDashboard(rows, { last: 5 });
    expect(seriesOf(page, 'tracegate').overall!.points).toBe(5);
  });
});

describe('the index row keeps what the dashboard draws', () => {
  const policy = {
    minDrop: 0.05,
    minGain: 0.05,
    alpha: 0.05,
    clusterBy: 'none' as const,
    gate: 'overall' as const,
    maxExcluded: 0.05,
    minItems: 10,
    minClusters: 5,
  };

  it('records the counts per kind and the flipped items, capped, regressed first', () => {
    // 30 S2 items right in the baseline and wrong now, 4 S5 items the other way.
    const baseline = {
      ...results({
        instances: [...records('S2_Loops', '1'.repeat(30)), ...records('S5_Exceptions', '0000')],
      }),
      commit: sha('base'),
    };
    const e = entry('c1', {
      instances: [...records('S2_Loops', '0'.repeat(30)), ...records('S5_Exceptions', '1111')],
    });
    e.results.comparison = compareRuns(e.results, { results: baseline, source: 'history' }, policy);
    const row: IndexRow = indexRow(e);
    expect(row).toMatchObject({
      total: 34,
      correct: 4,
      byKindCounts: {
        S2_Loops: { total: 30, correct: 0 },
        S5_Exceptions: { total: 4, correct: 4 },
      },
    });
    expect(row.flipped).toEqual({
      lost: Array.from({ length: FLIPPED_IN_INDEX }, (_, i) => ({
        id: `S2_Loops-${i}`,
        kind: 'S2_Loops',
      })),
      gained: [],
      lostTotal: 30,
      gainedTotal: 4,
      baseline: sha('base'),
    });
  });

  it('leaves the flipped items out of a run without a comparison, and old rows still read', () => {
    const row = indexRow(entry('c1'));
    expect(row.flipped).toBeUndefined();
    // A row of an older index: no counts.
    const old: IndexRow = { ...row };
    delete old.correct;
    delete old.byKindCounts;
    expect(indexRowSchema.parse(old)).toEqual(old);
    const page = renderDashboard([old]);
    expect(page).toContain('<td class="flipped none">not recorded</td>');
    expect(page).toContain(`<small>n=${old.total}</small>`);
    expect(page).not.toContain('class="whisker"');
  });
});

describe('the trend chart for the PR comment', () => {
  const rows = dashboardRows();
  const trend = renderTrend(rows, { name: 'tracegate', last: 10 });

  it('matches the reviewed rendering', () => {
    expectFixture(join(RENDERED, 'trend.md'), trend);
  });

  it('draws the last N commits: overall, then one chart per kind', () => {
    const blocks = trend.split('```mermaid\n').slice(1);
    expect(blocks).toHaveLength(5); // overall, S1, S2, S5, the hostile kind
    expect(blocks[0]).toMatch(
      /^xychart-beta\n {2}title "tracegate: overall accuracy, last 10 commit\(s\)"/,
    );
    expect(/line \[([^\]]*)\]/.exec(blocks[0]!)![1]!.split(', ')).toHaveLength(10);
    // S5 was not run at two of the last ten commits: eight points.
    expect(/line \[([^\]]*)\]/.exec(blocks[3]!)![1]!.split(', ')).toHaveLength(8);
  });

  it('no label can break the block, the fence or the comment', () => {
    expect(trend).not.toContain(HOSTILE_KIND);
    expect((trend.match(/```/g) ?? []).length).toBe(10); // five blocks, opened and closed
    expect((trend.match(/<\/details>/g) ?? []).length).toBe(1);
    expect(trend).not.toMatch(/<svg/);
    for (const line of trend.split('\n').filter((l) => /^\s+(title|x-axis)/.test(l)))
      expect(line).toMatch(/^ {2}(title "[^"\n`<>]*"|x-axis \[("[^"\n`<>]*"(, )?)+\])$/);
  });

  it('is empty for a run without history', () => {
    expect(renderTrend(rows, { name: 'absent' })).toBe('');
  });
});
