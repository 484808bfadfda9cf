import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonSchema } from '../../src/contracts/comparison.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { PROVENANCE, recs, resultsOf } from '../helpers/records.js';

/** 200 loop items in clusters of 2; the first `right` answered right, `flip` turned over. */
const loops = (right: number, flip: (i: number) => boolean = () => false): InstanceRecord[] =>
  recs(
    'S2_Loops',
    Array.from({ length: 200 }, (_, i) => (i < right !== flip(i) ? '1' : '0')).join(''),
    'l',
    2,
  );

function write(dir: string, name: string, results: Results | object): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(results));
  return file;
}

describe('tracegate compare', () => {
  const dir = tempDir('tg-compare-');
  const baseline = write(dir, 'base.json', resultsOf(loops(120)));
  const compare = (candidate: Results | object, ...flags: string[]) =>
    runCli([
      'compare',
      '--baseline',
      baseline,
      '--candidate',
      write(dir, 'cand.json', candidate),
      '--out',
      join(dir, 'out'),
      ...flags,
    ]);

  it('fails a real drop: exit 1, the verdict table, comparison.json', async () => {
    const { code, stdout } = await compare(resultsOf(loops(120, (i) => i < 30)));
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^❌ fail — Significant drop, 5\.0 pp or more as observed: overall −15\.0 pp/,
    );
    expect(stdout).toMatch(
      /\| S2_Loops \| 45\.0% \(90\/200\) \| — \| 200 \(100\) \| 60\.0% \| 45\.0% \| −15\.0 pp \| −[0-9.]+ … −[0-9.]+ pp \| 🔴 regressed \|/,
    );
    const written = comparisonSchema.parse(
      JSON.parse(readFileSync(join(dir, 'out', 'comparison.json'), 'utf8')),
    );
    expect(written.verdict).toBe('fail');
    expect(written.overall).toMatchObject({ paired: 200, lost: 30, gained: 0 });
  });

  it('passes an unchanged model: exit 0', async () => {
    const { code, stdout } = await compare(resultsOf(loops(120)));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^✅ pass/);
    // The terminal gets the report's text without markdown's marks.
    expect(stdout).not.toMatch(/\*\*|\\[<_|]|<details>|<sub>/);
  });

  it('inconclusive exits 4, or what --on-inconclusive says', async () => {
    // Half the items: 100 paired in 50 clusters, 4 lost, 2 gained — a 5-point drop not ruled out.
    const half = loops(120, (i) => i < 4 || i === 150 || i === 152).slice(0, 100);
    const neutral = await compare(resultsOf(half));
    expect(neutral.code).toBe(4);
    expect(neutral.stdout).toMatch(
      /^🟡 inconclusive — Cannot decide: a drop of 5\.0 pp is not ruled out/,
    );
    expect(neutral.stdout).toContain(
      '(0 only in this run, 100 only in the baseline: not compared)',
    );
    expect((await compare(resultsOf(half), '--on-inconclusive', 'fail')).code).toBe(1);
    expect((await compare(resultsOf(half), '--on-inconclusive', 'pass')).code).toBe(0);
  });

  it('refuses a results file of another schema version, naming the file', async () => {
    const old = { ...resultsOf(loops(120)), schema: 'tracegate/results@1' };
    const { code, stderr } = await compare(old);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--candidate .*cand\.json: not a tracegate results file/);
    expect(stderr).toMatch(
      /"tracegate\/results@1", written by another version of tracegate; this one reads tracegate\/results@2/,
    );
  });

  it('refuses a baseline with duplicate ids, and runs of another scorer', async () => {
    const twice = write(dir, 'twice.json', resultsOf([...loops(120), loops(120)[7]!]));
    const dup = await runCli([
      'compare',
      '--baseline',
      twice,
      '--candidate',
      baseline,
      '--out',
      dir,
    ]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/file .*twice\.json: instance "l7" has two records/);
    const other = await compare(
      resultsOf(loops(120), { provenance: { ...PROVENANCE, scorer: 'swe-flux@1' } }),
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /scorer tracegate-strict@1 \(baseline\) vs swe-flux@1 \(this run\)/,
    );
  });

  it.each([
    [['--alpha', 'NaN'], /--alpha must be a number above 0 and at most 0\.5, got "NaN"/],
    [['--alpha', '0'], /--alpha must be a number above 0/],
    [['--min-drop=-0.1'], /--min-drop must be a number above 0 and at most 1, got "-0\.1"/],
    [['--max-excluded', 'lots'], /--max-excluded must be a number in 0\.\.1, got "lots"/],
    [['--cluster-by', 'file'], /--cluster-by must be one of test, package, none/],
    [['--gate', 'kinds'], /--gate must be one of overall, per-kind/],
  ])('rejects %j naming the option and the value (exit 2)', async (flags, message) => {
    const { code, stderr } = await compare(resultsOf(loops(120)), ...flags);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('needs both files', async () => {
    const { code, stderr } = await runCli(['compare', '--baseline', baseline]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--candidate is required/);
  });
});
