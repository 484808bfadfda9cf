import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import { FIXTURE_SUITE, tempDir } from './cli.js';
import { fakeBackend, SOURCE } from './fake-engines.js';

/**
 * `tracegate run` of the fixture suite against `url` through the CLI door, the harvest faked:
 * whether the harvest began, the log, its last line, and how long the run took — for the
 * endpoint's checks, which end a run before any harvest.
 */
export async function runAgainst(url: string, extra: string[] = [], signal?: AbortSignal) {
  const dir = tempDir('tg-preflight-');
  let harvested = false;
  const engines: Engines = {
    backend: () => {
      harvested = true;
      return fakeBackend();
    },
    sources: { resolve: async () => SOURCE },
  };
  const out: string[] = [];
  const err: string[] = [];
  const started = Date.now();
  const code = await cli(
    [
      'run',
      ...['--instances', FIXTURE_SUITE, '--endpoint', url, '--model', 'qwen-7b'],
      ...['--cache', join(dir, 'cache'), '--out', join(dir, 'out'), '--backend', 'local'],
      ...extra,
    ],
    { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} },
    signal ? { signal } : {},
    engines,
  );
  return {
    code,
    ms: Date.now() - started,
    harvested,
    stderr: err.join('\n'),
    last: err.at(-1) ?? '',
    dir,
  };
}
