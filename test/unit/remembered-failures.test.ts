import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import type { HarvestBackend, HarvestJob } from '../../src/contracts/harvest-backend.js';
import { DirFailures } from '../../src/adapters/stores/failures.js';
import { RETRY_FAILED_AFTER } from '../../src/stages/harvest/env-groups.js';
import { tempDir } from '../helpers/cli.js';
import { engines, fakeBackend, flags, options } from '../helpers/fake-engines.js';

/**
 * A backend that answers like the fake tracer but fails every instance whose id holds
 * `collatz` (its tests fail), counting the specs it was asked to run.
 */
function failingBackend(asked: string[]): HarvestBackend {
  const ok = fakeBackend();
  return {
    ...ok,
    run: async (job: HarvestJob) => {
      const lines = (await ok.run(job)).split('\n');
      return lines
        .map((line) => {
          const result = JSON.parse(line) as Record<string, unknown>;
          asked.push(String(result.id));
          return String(result.id).includes('collatz')
            ? JSON.stringify({
                ...result,
                status: 'invalid',
                reason: 'tests failed: test_collatz.py::test_steps (pytest: 1 failed in 0.1s)',
                answer: undefined,
              })
            : line;
        })
        .join('\n');
    },
  };
}

/** A run over the fixture suite (its harvest through the failing backend); its log. */
async function harvest(dir: string, asked: string[], ...extra: string[]) {
  let stderr = '';
  const with_: Engines = { ...engines(() => true), backend: () => failingBackend(asked) };
  const code = await cli(
    ['run', ...flags(options(dir)), ...extra],
    { stdout: () => {}, stderr: (s) => (stderr += s.endsWith('\n') ? s : `${s}\n`), env: {} },
    {},
    with_,
  );
  expect([0, 4]).toContain(code);
  return { stdout: stderr, stderr };
}

describe('a failed instance is remembered, not harvested on every run', () => {
  it('the warm run asks no container for it, says so, and retries when asked or after the stated runs', async () => {
    const cache = tempDir('tg-failures-');
    const asked: string[] = [];
    const cold = await harvest(cache, asked);
    const failing = [...new Set(asked.filter((id) => id.includes('collatz')))];
    expect(failing.length).toBeGreaterThan(0);
    expect(cold.stdout).toMatch(new RegExp(`harvested, ${failing.length} failed\\n`));

    // Warm: every oracle from the cache, every failure remembered; the backend runs nothing.
    asked.length = 0;
    const warm = await harvest(cache, asked);
    expect(asked).toEqual([]);
    expect(warm.stdout).toContain(
      `0 harvested, ${failing.length} failed (${failing.length} remembered from an earlier run)`,
    );
    expect(warm.stderr).toContain(
      `${failing.length} instance(s) failed in an earlier run with this tracer and environment; ` +
        `not harvested again (each for ${RETRY_FAILED_AFTER} runs; --retry-failed true harvests them now)`,
    );

    // Asked to: harvested again (twice: both runs), and still failing, remembered anew.
    asked.length = 0;
    await harvest(cache, asked, '--retry-failed', 'true');
    expect(asked.sort()).toEqual([...failing, ...failing].sort());

    // After RETRY_FAILED_AFTER warm runs it is harvested again by itself.
    let harvestedAt = -1;
    for (let run = 1; run <= RETRY_FAILED_AFTER + 1 && harvestedAt < 0; run++) {
      asked.length = 0;
      await harvest(cache, asked);
      if (asked.length) harvestedAt = run;
    }
    expect(harvestedAt).toBe(RETRY_FAILED_AFTER + 1);
    expect(asked.every((id) => id.includes('collatz'))).toBe(true);
  });

  it('does not remember what failed around the instance (a container that died), only its own verdict', async () => {
    const dir = tempDir('tg-failures-job-');
    let runs = 0;
    const dying: HarvestBackend = {
      ...fakeBackend(),
      run: async () => {
        runs++;
        throw new Error('harvest container exceeded 60s');
      },
    };
    const with_: Engines = { ...engines(() => true), backend: () => dying };
    const run = () =>
      cli(
        ['run', ...flags(options(dir))],
        { stdout: () => {}, stderr: () => {}, env: {} },
        {},
        with_,
      );
    await run();
    const first = runs;
    expect(first).toBeGreaterThan(0);
    await run();
    expect(runs).toBe(2 * first); // asked again: nothing was remembered
  });

  it('runs again, and never remembers, what an unclean container did not run (an earlier cleanup failed)', async () => {
    const dir = tempDir('tg-failures-not-run-');
    let jobs = 0;
    const asked: string[] = [];
    const ok = fakeBackend();
    // The first job's container is left unclean after its first group: the driver runs no later
    // group there and says so (harvest.py `not_run`); every later job is clean.
    const unclean: HarvestBackend = {
      ...ok,
      run: async (job: HarvestJob) => {
        const first = jobs++ === 0;
        const lines = (await ok.run(job)).split('\n');
        return lines
          .map((line, i) => {
            const result = JSON.parse(line) as Record<string, unknown>;
            asked.push(String(result.id));
            if (!first || i === 0) return line;
            const why =
              "group 0's cleanup failed (RecursionError: maximum recursion depth exceeded)";
            return JSON.stringify({
              ...result,
              status: 'error',
              reason: `not run: ${why}`,
              answer: undefined,
              stats: { ...(result.stats as object), not_run: why },
            });
          })
          .join('\n');
      },
    };
    let stderr = '';
    const code = await cli(
      ['run', ...flags(options(dir))],
      { stdout: () => {}, stderr: (s) => (stderr += `${s}\n`), env: {} },
      {},
      { ...engines(() => true), backend: () => unclean },
    );
    expect([0, 4]).toContain(code);
    expect(stderr).toMatch(/ 0 failed/);
    expect(jobs).toBeGreaterThan(2); // the two runs, then the left-out items' two fresh runs
    // Nothing remembered: the failures folder holds no memo (or was never made).
    const memos = existsSync(join(dir, 'failures')) ? readdirSync(join(dir, 'failures')) : [];
    expect(memos).toEqual([]);
  });

  it('reads only a well-formed memo: a link, a wrong status or a bad count is none', () => {
    const dir = tempDir('tg-failure-store-');
    const store = new DirFailures(dir);
    const key = 'a'.repeat(64);
    expect(store.get(key)).toBeUndefined();
    store.put(key, { status: 'invalid', reason: 'tests failed: t', reused: 2 });
    expect(store.get(key)).toEqual({ status: 'invalid', reason: 'tests failed: t', reused: 2 });
    store.delete(key);
    expect(store.get(key)).toBeUndefined();
    const write = (k: string, value: unknown) =>
      writeFileSync(join(dir, `${k}.json`), JSON.stringify(value));
    write('b'.repeat(64), { status: 'ok', reason: 'x', reused: 0 });
    write('c'.repeat(64), { status: 'error', reason: 'x', reused: -1 });
    write('d'.repeat(64), { status: 'error', reason: 7, reused: 0 });
    for (const k of ['b', 'c', 'd']) expect(store.get(k.repeat(64))).toBeUndefined();
    const elsewhere = join(tempDir('tg-failure-link-'), 'real.json');
    writeFileSync(elsewhere, JSON.stringify({ status: 'error', reason: 'x', reused: 0 }));
    symlinkSync(elsewhere, join(dir, `${'e'.repeat(64)}.json`));
    expect(store.get('e'.repeat(64))).toBeUndefined();
    expect(() => store.put('../x', { status: 'error', reason: 'x', reused: 0 })).toThrow(
      /not an oracle key/,
    );
    mkdirSync(join(dir, 'sub'), { recursive: true });
    expect(readdirSync(dir).filter((n) => n.endsWith('.json'))).toHaveLength(4);
    expect(readFileSync(join(dir, `${'b'.repeat(64)}.json`), 'utf8')).toContain('"ok"');
  });
});
