import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { renderDashboard } from '../../src/stages/report/dashboard.js';
import { dashboardRows, expectedPoints } from '../helpers/history-rows.js';

/**
 * The dashboard opened in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): each series draws its points and its line, the
 * hostile strings stay text, nothing is fetched. The screenshot is kept in
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

interface SeriesDrawn {
  series: string;
  declared: number;
  /** Markers with a non-empty box inside their chart. */
  visible: number;
  /** Length of the drawn line (0 when absent). */
  line: number;
}

describe('the dashboard in headless Chromium', () => {
  let browser: Browser;
  const rows = dashboardRows();
  const dir = mkdtempSync(join(tmpdir(), 'tg-dashboard-'));
  const file = join(dir, 'index.html');

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

  it('draws every point of every series, fetches nothing, and keeps a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);

    for (const run of ['tracegate', 'nightly']) {
      const drawn: SeriesDrawn[] = await page.$$eval(
        `section[data-run="${run}"] g.series`,
        (groups) =>
          groups.map((g) => {
            const svg = g.closest('svg')!.getBoundingClientRect();
            const visible = [...g.querySelectorAll('circle.point')].filter((c) => {
              const box = c.getBoundingClientRect();
              return (
                box.width > 0 &&
                box.height > 0 &&
                box.left >= svg.left - 1 &&
                box.right <= svg.right + 1 &&
                box.top >= svg.top - 1 &&
                box.bottom <= svg.bottom + 1
              );
            }).length;
            const path = g.querySelector('path.line') as unknown as {
              getTotalLength(): number;
            } | null;
            return {
              series: g.getAttribute('data-series') ?? '',
              declared: Number(g.getAttribute('data-points')),
              visible,
              line: path ? path.getTotalLength() : 0,
            };
          }),
      );
      const expected = expectedPoints(rows, run);
      expect(Object.fromEntries(drawn.map((s) => [s.series, s.visible]))).toEqual(expected);
      for (const s of drawn) {
        expect(s.declared).toBe(s.visible);
        if (s.visible > 1) expect(s.line).toBeGreaterThan(0);
      }
    }

    // The hostile branch and revision are text in the table, not markup.
    const cells = await page.$$eval('section[data-run="tracegate"] td', (tds) =>
      tds.map((td) => td.textContent ?? ''),
    );
    expect(cells).toContain('<script>alert("branch")</script>');
    expect(cells).toContain(`acme"coder'<b>@</title><img src=x onerror=alert(1)>`);
    expect(await page.$$('img, script, section svg svg')).toHaveLength(0);
    expect(dialogs).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);

    const artifacts = process.env.TRACEGATE_ARTIFACTS ?? dir;
    mkdirSync(artifacts, { recursive: true });
    const shot = join(artifacts, 'dashboard.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    console.log(`dashboard screenshot: ${shot}`);
  });
});
