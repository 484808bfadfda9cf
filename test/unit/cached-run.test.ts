import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import { tempDir } from '../helpers/cli.js';
import { engines, flags, options } from '../helpers/fake-engines.js';

/**
 * A run whose oracles are all cached needs no engine: each environment's last
 * resolution is remembered beside the oracles (the runtime is part of their
 * key), and a group with no miss never asks for the backend.
 */
describe('a run the cache answers', () => {
  it('starts no engine, says so once per environment, and scores as the first run did', async () => {
    const dir = tempDir('tg-cached-');
    const run = async (out: string, with_: Engines) => {
      const log: string[] = [];
      const code = await cli(
        ['run', ...flags({ ...options(dir), out: join(dir, out) })],
        { stdout: () => {}, stderr: (t) => log.push(t), env: {} },
        {},
        with_,
      );
      const results = JSON.parse(readFileSync(join(dir, out, 'results.json'), 'utf8'));
      return { code, log, results };
    };
    const first = await run(
      'first',
      engines(() => true),
    );
    expect(first.code).toBe(0);
    expect(first.results.harvest).toMatchObject({ harvested: 5, cached: 0 });

    let asked = 0;
    const noEngine: Engines = {
      ...engines(() => true),
      backend: () => {
        asked++;
        throw new Error('no engine on this machine');
      },
    };
    const again = await run('again', noEngine);
    expect(again.code).toBe(0);
    expect(asked).toBe(0);
    expect(again.results.harvest).toMatchObject({ harvested: 0, cached: 5, failed: 0 });
    expect(again.results.summary).toMatchObject({ total: 5, correct: 5 });
    const said = again.log.filter((l) => l.includes('no engine needed'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^Environment "[\w.-]+": every oracle of its 5 instance\(s\) is cached/,
    );
    expect(again.log.join('\n')).not.toMatch(/will be harvested|could not be pulled/);
  });

  it('asks the engine when one oracle is missing', async () => {
    const dir = tempDir('tg-cached-');
    const run = (out: string, with_: Engines, sample?: string) =>
      cli(
        ['run', ...flags({ ...options(dir), out: join(dir, out), ...(sample ? { sample } : {}) })],
        { stdout: () => {}, stderr: () => {}, env: {} },
        {},
        with_,
      );
    expect(
      await run(
        'part',
        engines(() => true),
        '3',
      ),
    ).toBe(0);
    let asked = 0;
    const counted: Engines = {
      ...engines(() => true),
      backend: () => {
        asked++;
        return engines(() => true).backend!();
      },
    };
    expect(await run('all', counted)).toBe(0);
    expect(asked).toBe(1);
  });
});
