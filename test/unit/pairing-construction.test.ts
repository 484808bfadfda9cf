import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import { isoWeekEpoch } from '../../src/app/config/selection.js';
import type { Results } from '../../src/contracts/results.js';
import { tempDir } from '../helpers/cli.js';
import { engines, flags, HEAD, options, PREVIOUS } from '../helpers/fake-engines.js';

/**
 * Pairing by construction: a run with a baseline selects what the baseline
 * recorded (sample, seed, categories, ids, variants and their epoch) unless
 * told otherwise, through the history store as a pull request would find it.
 */
async function runAt(
  dir: string,
  extra: Record<string, string>,
): Promise<{ code: number; results: Results; log: string[] }> {
  const log: string[] = [];
  const code = await cli(
    ['run', ...flags({ ...options(dir), ...extra })],
    { stdout: () => {}, stderr: (t) => log.push(t), env: {} },
    {},
    engines(() => true),
  );
  const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Results;
  return { code, results, log };
}

describe('pairing by construction', () => {
  it("takes the baseline's recorded selection when the run sets none, and pairs every baseline item", async () => {
    const base = tempDir('tg-pairing-');
    const history = join(base, 'history');
    const recorded = await runAt(join(base, 'b'), {
      history,
      commit: PREVIOUS,
      sample: '3',
      seed: '7',
    });
    expect(recorded.code).toBe(0);
    expect(recorded.results.selection).toEqual({ sample: 3, seed: 7 });
    const baselineIds = recorded.results.instances.map((r) => r.id).sort();

    // The pull request's run with default options against the history's entry of its parent.
    const pr = await runAt(join(base, 'pr'), { history, commit: HEAD, parent: PREVIOUS });
    expect(pr.results.selection).toEqual({ sample: 3, seed: 7 });
    expect(pr.results.instances.map((r) => r.id).sort()).toEqual(baselineIds);
    expect(pr.results.comparison!.pairing).toMatchObject({ paired: 3, baselineOnly: 0 });
    expect(pr.log).toContain(
      "Selection as the baseline's (sample 3, seed 7): every baseline item has its pair. " +
        'Set categories/ids/sample/seed/variants to choose otherwise.',
    );
  });

  it('keeps a selection the run sets, and says why only part of the baseline pairs', async () => {
    const base = tempDir('tg-pairing-');
    const history = join(base, 'history');
    await runAt(join(base, 'b'), { history, commit: PREVIOUS, sample: '3', seed: '7' });
    const other = await runAt(join(base, 'pr'), {
      history,
      commit: HEAD,
      parent: PREVIOUS,
      sample: '3',
      seed: '1',
    });
    expect(other.results.selection).toEqual({ sample: 3, seed: 1 });
    const pairing = other.results.comparison!.pairing!;
    expect(pairing.selectionDiffers).toEqual(['seed 1 here, 7 in the baseline']);
    // Seed 1 samples another 3 of the suite's 5: the baseline items it left out are named as such.
    expect(pairing.baselineOnly).toBeGreaterThan(0);
    const of = pairing.intersection + pairing.baselineOnly;
    expect(other.results.comparison!.summary).toContain(
      `Paired ${pairing.paired} of ${of} baseline items: seed 1 here, 7 in the baseline.`,
    );
    const report = readFileSync(join(base, 'pr', 'out', 'report.md'), 'utf8');
    expect(report).toContain(
      `${pairing.paired} of ${of} baseline items paired (seed 1 here, 7 in the baseline)`,
    );
  });

  it("answers the baseline's variant epoch with variant-epoch auto, else the ISO week", async () => {
    const base = tempDir('tg-pairing-');
    const history = join(base, 'history');
    const first = await runAt(join(base, 'b'), {
      history,
      commit: PREVIOUS,
      variants: 'only',
      'variant-epoch': '5',
    });
    expect(first.results.selection?.variants).toEqual({ mode: 'only', epoch: 5 });
    expect(first.results.variants?.epoch).toBe(5);
    // A pull request with epoch auto: the baseline's epoch, even in another week.
    const pr = await runAt(join(base, 'pr'), {
      history,
      commit: HEAD,
      parent: PREVIOUS,
      'variant-epoch': 'auto',
    });
    expect(pr.results.selection?.variants).toEqual({ mode: 'only', epoch: 5 });
    expect(pr.results.variants?.epoch).toBe(5);
    // Without a baseline, auto is the calendar's week.
    const alone = await runAt(join(base, 'alone'), { variants: 'only', 'variant-epoch': 'auto' });
    expect(alone.results.variants?.epoch).toBe(isoWeekEpoch(new Date()));
  });

  it('numbers ISO weeks as the calendar does at the turn of a year', () => {
    expect(isoWeekEpoch(new Date('2026-12-02T12:00:00Z'))).toBe(202649);
    expect(isoWeekEpoch(new Date('2021-01-01T00:00:00Z'))).toBe(202053);
    expect(isoWeekEpoch(new Date('2024-12-30T00:00:00Z'))).toBe(202501);
    expect(isoWeekEpoch(new Date('2026-01-01T00:00:00Z'))).toBe(202601);
  });
});
