import type { IndexRow } from '../../src/contracts/history.js';
import { renderDashboard } from '../../src/stages/report/dashboard.js';
import { apartRows, trackedBranch } from '../../src/stages/report/dashboard-line.js';
import { at, sha } from '../helpers/history.js';

/**
 * The dashboard's main line holds the tracked branch's scores as it moved: a failed checkpoint
 * that was never merged (the local loop's rejected candidate, a run on a PR's branch) is drawn
 * as a ring the line passes by — never a dip of main.
 */

let minute = 0;
function row(label: string, fields: Partial<IndexRow> & { accuracy: number }): IndexRow {
  return {
    name: 'tracegate',
    commit: sha(label),
    recordedAt: at(minute++ * 60),
    total: 40,
    byKind: { S2_Loops: fields.accuracy },
    model: 'acme-coder',
    ...fields,
  };
}

/** The overall chart's line, as its points' y coordinates, and the overall markers' classes. */
function overallChart(html: string): { ys: number[]; markers: string[] } {
  const series = /<g class="series" data-series="overall"[^>]*>([\s\S]*?)<\/g>/.exec(html)![1]!;
  const d = /<path class="line" d="([^"]+)"/.exec(series)![1]!;
  return {
    ys: [...d.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1])),
    markers: [...series.matchAll(/<circle class="([^"]+)"/g)].map((m) => m[1]!),
  };
}

describe("the dashboard's main line", () => {
  it('passes by a candidate the gate rejected in the local loop (the demo: baseline, regressed, unchanged)', () => {
    const rows = [
      row('baseline', { accuracy: 0.54, verdict: 'no-baseline' }),
      row('regressed', { accuracy: 0.2, verdict: 'fail', parent: sha('baseline') }),
      row('unchanged', { accuracy: 0.54, verdict: 'pass', parent: sha('baseline') }),
    ];
    const apart = apartRows(rows);
    expect([...apart.values()]).toEqual(['a candidate the gate rejected']);
    expect(apart.has(rows[1]!)).toBe(true);

    const html = renderDashboard(rows);
    const { ys, markers } = overallChart(html);
    // Two points on the line, both at 54%: no dip.
    expect(ys).toHaveLength(2);
    expect(ys[0]).toBe(ys[1]);
    expect(markers).toEqual([
      'point verdict-no-baseline',
      'point verdict-fail apart',
      'point verdict-pass',
    ]);
    expect(html).toContain('1 off the main line (ringed points the line passes by)');
    expect(html).toContain('off the main line: a candidate the gate rejected');
  });

  it('keeps a failed push of the tracked branch on the line (it was merged), and draws other branches apart', () => {
    const rows = [
      row('m0', { accuracy: 0.6, branch: 'main', verdict: 'no-baseline' }),
      row('m1', { accuracy: 0.4, branch: 'main', verdict: 'fail', parent: sha('m0') }),
      row('pr', { accuracy: 0.1, branch: 'feature/x', verdict: 'fail', parent: sha('m1') }),
      row('m2', { accuracy: 0.6, branch: 'main', verdict: 'pass', parent: sha('m1') }),
    ];
    expect(trackedBranch(rows)).toBe('main');
    const apart = apartRows(rows);
    expect([...apart.entries()].map(([r, why]) => [r.commit, why])).toEqual([
      [sha('pr'), 'on branch feature/x, not main'],
    ]);
    const { ys, markers } = overallChart(renderDashboard(rows));
    expect(ys).toHaveLength(3);
    expect(markers.filter((m) => m.endsWith(' apart'))).toEqual(['point verdict-fail apart']);
  });

  it('passes by a passing candidate another run on the same parent replaced; an accepted failure stays', () => {
    const rows = [
      row('a', { accuracy: 0.5, verdict: 'no-baseline' }),
      row('b', { accuracy: 0.52, verdict: 'pass', parent: sha('a') }),
      row('c', { accuracy: 0.55, verdict: 'pass', parent: sha('a') }),
      row('d', { accuracy: 0.45, verdict: 'fail', accepted: true, parent: sha('c') }),
    ];
    const apart = apartRows(rows);
    expect([...apart.entries()].map(([r, why]) => [r.commit, why])).toEqual([
      [sha('b'), 'a candidate passed over: a later run on the same parent'],
    ]);
  });

  it('a history of one branch and no candidates draws every point on the line', () => {
    const rows = [0, 1, 2].map((i) =>
      row(`only-${i}`, {
        accuracy: 0.5,
        branch: 'main',
        verdict: 'pass',
        ...(i ? { parent: sha(`only-${i - 1}`) } : {}),
      }),
    );
    expect(apartRows(rows).size).toBe(0);
    const html = renderDashboard(rows);
    expect(overallChart(html).ys).toHaveLength(3);
    expect(html).not.toMatch(/ apart"|off the main line: /);
  });
});
