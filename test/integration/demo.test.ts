import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultsSchema } from '../../src/contracts/results.js';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { installPacked, ROOT, runIn } from '../helpers/packed.js';
import { requireDocker } from '../helpers/docker.js';
import { LOCAL_BASES } from '../../src/adapters/backends/base-image.js';

/** click's test-outcome items in the bundle: what the demo asks (counted from the files, not written down). */
function clickOutcomeItems(): number {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'instances', 'click');
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(root, d.name)).filter((f) => f.endsWith('.instance.json')))
    .filter((f) => /^click-w1-/.test(f)).length;
}

describe('tracegate demo', () => {
  it('shows the gate from the packed package, in an empty directory: a baseline, a regressed checkpoint that fails, an unchanged one that passes', async () => {
    await requireDocker();
    // What `npx tracegate` runs: the tarball `npm pack` makes, installed where nothing else is.
    const dir = installPacked();
    const { code, stdout, stderr } = await runIn(dir, ['npx', '--no-install', 'tracegate', 'demo']);
    expect({ code, stderr: code ? stderr : '' }).toEqual({ code: 0, stderr: '' });
    // Real oracles: click's test-outcome items, harvested in Docker (twice, as every oracle),
    // into the directory's own cache.
    const items = clickOutcomeItems();
    expect(items).toBeGreaterThanOrEqual(30);
    expect(stderr).toContain(
      `Harvesting ${items} instance(s) in environment "click" (docker, run 1 of 2`,
    );
    expect(existsSync(join(dir, '.tracegate', 'cache', 'oracles'))).toBe(true);
    // The regressed checkpoint's report: a fail, its flipped items, the trend of the three commits.
    expect(stdout).toContain('tracegate — tracegate-demo-heuristic-regressed');
    expect(stdout).toMatch(
      /❌ fail — Significant drop, 10\.0 pp or more as observed: overall −\d+\.\d pp/,
    );
    expect(stdout).toContain('\nTrend\n');
    // The closing lines, one per checkpoint, in order.
    const lines = stdout.split('\n').filter((l) => l.startsWith('- the '));
    expect(lines).toEqual([
      expect.stringMatching(/^- the baseline checkpoint: ℹ️ no baseline/),
      expect.stringMatching(/^- the regressed checkpoint: ❌ fail/),
      expect.stringMatching(/^- the unchanged checkpoint: ✅ pass/),
    ]);
    const read = (label: string) =>
      resultsSchema.parse(
        JSON.parse(readFileSync(join(dir, 'tracegate-out', label, 'results.json'), 'utf8')),
      );
    const [baseline, regressed, unchanged] = ['baseline', 'regressed', 'unchanged'].map(read);
    expect(baseline!.harvest).toMatchObject({ harvested: items, failed: 0 });
    expect(unchanged!.harvest).toMatchObject({ cached: items, harvested: 0 });
    // The regression is real: items the baseline got right that the regressed one lost, listed.
    expect(regressed!.comparison?.flipped?.lost.length).toBeGreaterThan(5);
    expect(regressed!.summary.correct).toBeLessThan(baseline!.summary.correct);
    expect(unchanged!.summary.correct).toBe(baseline!.summary.correct);
    // Honest: the demo model never sees an oracle, so it is far from perfect even at its best.
    expect(baseline!.summary.correct).toBeLessThan(baseline!.summary.total);
    // The README's figures are this run's.
    const check = await runIn(ROOT, [
      process.execPath,
      'scripts/readme-figures.mjs',
      '--check',
      dir,
    ]);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  }, 600_000);

  it('runs end to end in Docker with the built-in demo model', async () => {
    await requireDocker();
    const dir = tempDir('tg-demo-');
    const { code, stdout, stderr } = await runCli([
      'demo',
      '--instances',
      FIXTURE_SUITE,
      '--cache',
      join(dir, 'cache'),
      '--out',
      join(dir, 'out'),
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /Built-in demo model \(a static heuristic, not a real model and not the oracle\) listening on http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect(stderr).toMatch(
      /Harvesting 5 instance\(s\) in environment "plain" \(docker, run 1 of 2/,
    );
    expect(stderr).toMatch(
      /Harvesting 5 instance\(s\) in environment "plain" \(docker, run 2 of 2/,
    );
    expect(stdout).toMatch(/^tracegate — tracegate-demo-heuristic/m);
    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(dir, 'out', 'baseline', 'results.json'), 'utf8')),
    );
    expect(results.summary.total).toBe(5);
    // The heuristic reads only the prompt: a straight-line guess of the covered lines includes
    // the `else` branch that never runs for these inputs... but here every branch runs, so it
    // is right there, and wrong on the loop counts it cannot know.
    const correct = Object.fromEntries(results.instances.map((r) => [r.id, r.correct]));
    expect(correct['fx-loops-collatz']).toBe(false);
    expect(correct['fx-cfg-classify']).toBe(true);
  });

  it('harvests in a local virtualenv, and says so, where no Docker engine is reachable', async () => {
    const dir = tempDir('tg-demo-local-');
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
    try {
      const { code, stdout, stderr } = await runCli([
        'demo',
        '--instances',
        FIXTURE_SUITE,
        '--cache',
        join(dir, 'cache'),
        '--out',
        join(dir, 'out'),
      ]);
      expect(stderr).toMatch(
        /warning: No Docker engine reachable .*local virtualenv instead.*WITHOUT container isolation/,
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/\| S2_Loops \| [0-9.]+% \(\d\/3\) \|/);
      const results = resultsSchema.parse(
        JSON.parse(readFileSync(join(dir, 'out', 'baseline', 'results.json'), 'utf8')),
      );
      expect(results.harvest).toMatchObject({ backend: 'local', harvested: 5 });
      expect(results.instances.find((r) => r.id === 'fx-loops-collatz')?.oracle).toEqual({
        loop_iteration_count: 8,
      });
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });

  it('without the base image, says it could not pull it, builds the local one, and ends with a report', async () => {
    const docker = await requireDocker();
    const local = LOCAL_BASES['3.11']!.image;
    const backup = 'tracegate-test-backup/base:bookworm';
    // Remove the base image (keeping its bytes under another tag, restored afterwards).
    await docker.getImage(local).tag({ repo: 'tracegate-test-backup/base', tag: 'bookworm' });
    await docker.getImage(local).remove();
    const dir = tempDir('tg-demo-nobase-');
    try {
      const { code, stdout, stderr } = await runCli([
        'demo',
        '--instances',
        FIXTURE_SUITE,
        '--cache',
        join(dir, 'cache'),
        '--out',
        join(dir, 'out'),
      ]);
      expect(stderr).toMatch(/Base image python:3\.11-slim is not present; pulling it/);
      expect(stderr).toMatch(
        /python:3\.11-slim could not be pulled \(.+\); (building the local tracegate\/base:bookworm with debootstrap|Harvesting it in a local virtualenv instead)/,
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^tracegate — tracegate-demo-heuristic/m);
      const results = resultsSchema.parse(
        JSON.parse(readFileSync(join(dir, 'out', 'baseline', 'results.json'), 'utf8')),
      );
      expect(results.summary.total).toBe(5);
      expect(results.harvest.environments?.[0]?.runtime).toMatch(
        /python:3\.11-slim could not be pulled/,
      );
    } finally {
      // The rebuilt stand-in goes; the original bytes come back under their name.
      const idOf = (name: string) =>
        docker
          .getImage(name)
          .inspect()
          .then((i) => i.Id)
          .catch(() => undefined);
      const [now, original] = [await idOf(local), await idOf(backup)];
      const rebuilt = now !== original ? now : undefined;
      await docker
        .getImage(backup)
        .tag({ repo: 'tracegate/base', tag: 'bookworm' })
        .catch(() => {});
      await docker
        .getImage(backup)
        .remove()
        .catch(() => {});
      if (rebuilt)
        await docker
          .getImage(rebuilt)
          .remove({ force: true })
          .catch(() => {});
    }
  }, 600_000);
});
