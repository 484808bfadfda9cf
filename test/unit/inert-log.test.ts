import { groupedLogger } from '../../src/app/action/runner.js';
import { cli } from '../../src/doors/cli/commands.js';
import { inertLog } from '../../src/util/inert-log.js';
import { tempDir } from '../helpers/cli.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Lines a GitHub runner would run as workflow commands (`::name…` or `##[name…`, leading spaces allowed). */
const commands = (log: string[]) =>
  log
    .join('\n')
    .split(/\r\n|\r|\n/)
    .filter((l) => /^\s*(::|##\[)/.test(l));

// A suite's environment name or a reply's text in a log line must not command the runner.
const HOSTILE =
  'env plain\n::add-mask::ghp_secret\r::warning file=x::forged\n  ::stop-commands::tok\n##[set-output name=a]b';

describe('log lines are inert to the runner', () => {
  it('puts no command at the start of any line, and reads the same', () => {
    const out = inertLog(HOSTILE);
    expect(commands([HOSTILE])).toHaveLength(4);
    expect(commands([out])).toEqual([]);
    expect(out.replace(/\u200b/g, '')).toBe(HOSTILE.replace(/\r/g, '\n'));
    expect(inertLog('a :: b, plain text')).toBe('a :: b, plain text');
  });

  it("holds for the Action's run log", () => {
    const said: string[] = [];
    const logger = groupedLogger({
      info: (m) => said.push(m),
      warning: (m) => said.push(m),
      startGroup: () => {},
      endGroup: () => {},
    });
    logger.log(`Harvesting environment ${HOSTILE}`);
    expect(said).toHaveLength(1);
    expect(commands(said)).toEqual([]);
  });

  it("holds for the CLI's error line", async () => {
    const dir = tempDir('tg-inert-');
    const suite = join(dir, `bad\n::add-mask::x`);
    mkdirSync(suite, { recursive: true });
    writeFileSync(join(suite, 'broken.instance.json'), '{');
    const err: string[] = [];
    const code = await cli(['harvest', '--instances', suite, '--cache', join(dir, 'c')], {
      stdout: () => {},
      stderr: (t) => err.push(t),
      env: {},
    });
    expect(code).not.toBe(0);
    expect(err.join('\n')).toContain('add-mask');
    expect(commands(err)).toEqual([]);
  });
});
