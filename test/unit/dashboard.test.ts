import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDashboard } from '../../src/stages/report/dashboard.js';
import { renderTrend } from '../../src/stages/report/trend.js';
import { dashboardRows, expectedPoints, HOSTILE_KIND } from '../helpers/history-rows.js';
import { expectFixture } from '../helpers/fixtures.js';

const RENDERED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'rendered');

/** The data-points count of each series in a run's section of the page. */
function drawnPoints(html: string, run: string): Record<string, number> {
  const section = html.split(`<section class="run" data-run="${run}">`)[1]!.split('</section>')[0]!;
  const counts: Record<string, number> = {};
  for (const m of section.matchAll(
    /<g class="series" data-series="([^"]*)" data-points="(\d+)"[^>]*>([\s\S]*?)<\/g>/g,
  )) {
    const circles = (m[3]!.match(/<circle /g) ?? []).length;
    expect(circles).toBe(Number(m[2]));
    counts[m[1]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))] = circles;
  }
  return counts;
}

describe('the dashboard', () => {
  const rows = dashboardRows();
  const html = renderDashboard(rows, { repository: 'acme/models' });

  it('matches the reviewed rendering', () => {
    expectFixture(join(RENDERED, 'dashboard.html'), html);
  });

  it('draws one point per commit per series, with the verdict on the overall points', () => {
    expect(drawnPoints(html, 'tracegate')).toEqual(expectedPoints(rows, 'tracegate'));
    expect(drawnPoints(html, 'nightly')).toEqual(expectedPoints(rows, 'nightly'));
    expect((html.match(/class="point verdict-fail"/g) ?? []).length).toBe(1);
    expect((html.match(/class="point verdict-accepted"/g) ?? []).length).toBe(1);
    expect((html.match(/class="point verdict-other"/g) ?? []).length).toBe(1);
  });

  it('breaks the line where a kind was not run', () => {
    const s5 = /data-series="S5_Exceptions"[^>]*>\n<path class="line" d="([^"]+)"/.exec(html)![1]!;
    expect(s5.match(/M/g)).toHaveLength(2);
  });

  it('escapes every string from the history, and fetches nothing', () => {
    expect(html).not.toMatch(/<script|<img|<svg onload|<b>/i);
    expect(html).toContain('&#60;script&#62;alert(&#34;branch&#34;)&#60;/script&#62;');
    expect(html).toContain('&#60;/title&#62;&#60;img src=x onerror=alert(1)&#62;');
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
    expect(drawnPoints(page, 'tracegate').overall).toBe(5);
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
