import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { IndexRow } from '../../src/contracts/history.js';
import { renderDashboard } from '../../src/stages/report/dashboard.js';
import { VERDICT_COLOURS } from '../../src/stages/report/dashboard-palette.js';
import { dashboardHistory, HOSTILE_ID } from '../helpers/dashboard-history.js';
import { expectedPoints } from '../helpers/history-rows.js';
import { sha } from '../helpers/history.js';

/**
 * The dashboard opened in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): each series draws its points, its line and its
 * interval bands; the failing commit's verdict is visible in words and
 * colour; the items scored per kind are in the table; a commit's flipped
 * items open on a click; the hostile strings stay text; nothing is fetched
 * and nothing is logged as an error. The screenshot is kept in
 * $TRACEGATE_ARTIFACTS (CI uploads it) or a temp directory.
 */
const CHROMIUM = process.env.TRACEGATE_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const VIEWPORT = { width: 1100, height: 900 };

interface SeriesDrawn {
  series: string;
  declared: number;
  /** Markers with a non-empty box inside their chart. */
  visible: number;
  /** Length of the drawn line (0 when absent). */
  line: number;
  /** Whiskers and bands with a non-empty box. */
  whiskers: number;
  bands: number;
}

/** Whiskers and bands a run's series should draw: one whisker per kept interval, one band per run of them. */
function expectedIntervals(
  rows: readonly IndexRow[],
  name: string,
): Record<string, [number, number]> {
  const ofName = rows.filter((r) => r.name === name);
  const counted = (r: IndexRow, series: string) =>
    series === 'overall'
      ? r.correct !== undefined && r.total > 0
      : r.byKind[series] !== undefined && (r.byKindCounts?.[series]?.total ?? 0) > 0;
  return Object.fromEntries(
    Object.keys(expectedPoints(rows, name)).map((series) => {
      const flags = ofName.map((r) => counted(r, series));
      const bands = flags.filter((f, i) => f && flags[i + 1] && !flags[i - 1]).length;
      return [series, [flags.filter(Boolean).length, bands]];
    }),
  );
}

/** The size of a PNG, from its header. */
function pngSize(file: string): { width: number; height: number } {
  const head = readFileSync(file).subarray(0, 24);
  expect(head.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

describe('the dashboard in headless Chromium', () => {
  let browser: Browser;
  const rows = dashboardHistory();
  const dir = mkdtempSync(join(tmpdir(), 'tg-dashboard-'));
  const file = join(dir, 'index.html');
  const failRow = `tr#commit-tracegate-${sha('main-9')}`;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `No Chromium at ${CHROMIUM}: install Debian's (\`apt-get install -y chromium\`, as .ci/run does) ` +
          'or point TRACEGATE_CHROMIUM at one.',
      );
    writeFileSync(file, renderDashboard(rows, { repository: 'acme/models' }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(() => browser?.close());

  async function series(page: Page, run: string): Promise<SeriesDrawn[]> {
    return page.$$eval(`section[data-run="${run}"] g.series`, (groups) =>
      groups.map((g) => {
        const svg = g.closest('svg')!.getBoundingClientRect();
        const inside = (box: { left: number; right: number; top: number; bottom: number }) =>
          box.left >= svg.left - 1 &&
          box.right <= svg.right + 1 &&
          box.top >= svg.top - 1 &&
          box.bottom <= svg.bottom + 1;
        const sized = (selector: string, both: boolean) =>
          [...g.querySelectorAll(selector)].filter((el) => {
            const box = el.getBoundingClientRect();
            return inside(box) && box.height > 0 && (!both || box.width > 0);
          }).length;
        const path = g.querySelector('path.line') as unknown as {
          getTotalLength(): number;
        } | null;
        return {
          series: g.getAttribute('data-series') ?? '',
          declared: Number(g.getAttribute('data-points')),
          visible: sized('circle.point', true),
          line: path ? path.getTotalLength() : 0,
          // A whisker is a vertical line: its box has a height, not always a width.
          whiskers: sized('line.whisker', false),
          bands: sized('path.band', true),
        };
      }),
    );
  }

  it('draws every point and interval, shows the fail, the counts and the flipped items, fetches nothing, and keeps a screenshot', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const requests: string[] = [];
    const dialogs: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);

    for (const run of ['tracegate', 'nightly']) {
      const drawn = await series(page, run);
      expect(Object.fromEntries(drawn.map((s) => [s.series, s.visible]))).toEqual(
        expectedPoints(rows, run),
      );
      expect(Object.fromEntries(drawn.map((s) => [s.series, [s.whiskers, s.bands]]))).toEqual(
        expectedIntervals(rows, run),
      );
      for (const s of drawn) {
        expect(s.declared).toBe(s.visible);
        if (s.visible > 1) expect(s.line).toBeGreaterThan(0);
      }
    }
    // The reviewed history has bands to draw: the test would not pass on a page without them.
    expect(await page.locator('section[data-run="tracegate"] path.band').count()).toBe(6);
    expect(await page.locator('section[data-run="tracegate"] line.whisker').count()).toBe(41);

    // The failing commit: a red point in the chart, and the word in its row's badge.
    const point = page.locator('circle.point.verdict-fail');
    await expect(point.isVisible()).resolves.toBe(true);
    // Inside the page, where getComputedStyle is a global (this file compiles without the DOM's types).
    const fill = await point.evaluate(
      (c) =>
        (
          globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }
        ).getComputedStyle(c).fill,
    );
    expect(fill).toBe('rgb(207, 34, 46)');
    expect(VERDICT_COLOURS.fail).toBe('#cf222e');
    const badge = page.locator(`${failRow} .verdict.verdict-fail`);
    await expect(badge.isVisible()).resolves.toBe(true);
    expect(await badge.innerText()).toBe('fail');

    // Its items scored per kind, visible in its row (overall, S1, S2, S5, the hostile kind).
    const fail = rows[9]!;
    const cells = await page.locator(`${failRow} td.num`).allInnerTexts();
    expect(cells.map((c) => c.split('\n')[1]?.replace(/^.*(n=\d+)$/, '$1'))).toEqual([
      `n=${fail.total}`,
      ...Object.values(fail.byKindCounts!).map((c) => `n=${c.total}`),
    ]);

    // A click on its point leads to its row; a click on the summary opens its flipped items.
    await point.click();
    expect(new URL(page.url()).hash).toBe(`#commit-tracegate-${sha('main-9')}`);
    const details = page.locator(`${failRow} td.flipped details`);
    const items = details.locator('li');
    expect(await details.evaluate((d) => d.hasAttribute('open'))).toBe(false);
    await expect(items.first().isVisible()).resolves.toBe(false);
    await details.locator('summary').click();
    expect(await details.evaluate((d) => d.hasAttribute('open'))).toBe(true);
    await expect(items.first().isVisible()).resolves.toBe(true);
    expect(await items.allInnerTexts()).toEqual([
      'S1-3 S1_IntraProceduralCFG right → wrong',
      `${HOSTILE_ID} S2_Loops right → wrong`,
      expect.stringMatching(
        /^bogus-1 S9_Bogus"><svg onload=alert\(1\)>```\s+<\/details> right → wrong$/,
      ),
      'S5-2 S5_Exceptions wrong → right',
      'gone-7 kind unknown wrong → right',
    ]);

    // The hostile branch, revision and flipped id are text, not markup.
    const cellTexts = await page.$$eval('section[data-run="tracegate"] td', (tds) =>
      tds.map((td) => td.textContent ?? ''),
    );
    expect(cellTexts).toContain('<script>alert("branch")</script>');
    expect(cellTexts).toContain(`acme"coder'<b>@</title><img src=x onerror=alert(1)>`);
    expect(await page.$$('img, script, section svg svg, details[open] details')).toHaveLength(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);

    const artifacts = process.env.TRACEGATE_ARTIFACTS ?? dir;
    mkdirSync(artifacts, { recursive: true });
    const shot = join(artifacts, 'dashboard.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    const size = pngSize(shot);
    expect(size.width).toBe(VIEWPORT.width);
    expect(size.height).toBeGreaterThan(VIEWPORT.height);
    console.log(`dashboard screenshot: ${shot}`);
  });
});
