import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import { FIXTURE_SUITE, tempDir } from '../helpers/cli.js';

/**
 * Mistakes a newcomer makes, caught before any work, each with its exact
 * message and exit code (docs/errors.md lists them). None of these reach a
 * harvest: no engine or server is needed.
 */
async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await cli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const model = ['--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'];

describe('mistakes found before any work', () => {
  it('a typo in a flag names the flag meant, and where the options are', async () => {
    const { code, stderr, stdout } = await run(['run', ...model, '--smaple', '5']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'tracegate: unknown option --smaple for tracegate run (did you mean --sample?); `tracegate help run` lists its options',
    );
    expect(stdout).toBe('');
  });

  it('a typo in a command names the command meant', async () => {
    const { code, stderr } = await run(['rn']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'tracegate: unknown command "rn" (did you mean run?); `tracegate help` lists the commands',
    );
  });

  it.each([[['demo', '--help']], [['help', 'demo']]])(
    '%j prints that command’s usage only, exit 0',
    async (argv) => {
      const { code, stdout } = await run(argv);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage:\n {2}tracegate demo /);
      expect(stdout).not.toContain('tracegate compare');
      expect(stdout).toContain('--instances DIR');
      expect(stdout).not.toContain('--commit SHA'); // a flag of run only
    },
  );

  it.each([['score'], ['stats'], ['audit']])(
    '%s --help prints its usage, exit 0 (never a parser error)',
    async (command) => {
      const { code, stdout, stderr } = await run([command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`tracegate ${command}`);
      expect(stderr).toBe('');
    },
  );

  it('a sample larger than the selection is refused before any harvest (exit 2)', async () => {
    const { code, stderr } = await run([
      'run',
      ...model,
      '--instances',
      FIXTURE_SUITE,
      '--sample',
      '5000',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^tracegate: --sample 5000 is more than the \d+ instance\(s\) the suite holds: give at most \d+, or leave --sample unset to run all of them\. Nothing ran\.$/,
    );
    const filtered = await run([
      'run',
      ...model,
      '--instances',
      FIXTURE_SUITE,
      '--categories',
      'S2',
      '--sample',
      '5000',
    ]);
    expect(filtered.stderr).toMatch(/the suite and the other filters leave/);
  });

  it('an unknown kind suggests the closest and lists every kind (exit 2)', async () => {
    const { code, stderr } = await run(['run', ...model, '--categories', 'Loopz']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^tracegate: --categories: "Loopz" names no question kind\. Did you mean "Loops" \(S2_Loops, M2_Loops\)\? A token is a kind, its code or its name, e\.g\. S2, Loops or S2_Loops; the kinds: S1_IntraProceduralCFG, .*B2_RegressionTest\.$/,
    );
    const far = await run(['run', ...model, '--categories', 'xyzzyplugh']);
    expect(far.stderr).not.toMatch(/Did you mean/);
  });

  it('dashboard of a history directory that does not exist writes nothing (exit 2)', async () => {
    const dir = tempDir('tg-mistake-');
    const { code, stderr } = await run([
      'dashboard',
      '--history',
      join(dir, 'nope'),
      '--out',
      join(dir, 'page.html'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /--history .*nope does not exist: give the directory your runs record into/,
    );
    expect(existsSync(join(dir, 'page.html'))).toBe(false);
  });

  it('--instances naming a file says to give the suite directory', async () => {
    const file = join(FIXTURE_SUITE, 'basic', 'fx-loops-collatz', 'instance.json');
    const { code, stderr } = await run(['run', ...model, '--instances', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `tracegate: --instances ${file} is a file: give the suite directory (the folder holding the instance files, with environments/ at or above it)`,
    );
  });

  it('a history path that is a file is refused before any work (exit 2)', async () => {
    const file = join(tempDir('tg-mistake-'), 'history');
    writeFileSync(file, 'not a directory');
    const { code, stderr } = await run([
      'run',
      ...model,
      '--instances',
      FIXTURE_SUITE,
      '--history',
      file,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `tracegate: --history ${file} is a file: give a directory (it is created if missing)`,
    );
    expect(stderr).not.toMatch(/Harvesting/);
  });

  it("a history directory holding someone else's index.json is refused, never overwritten", async () => {
    const dir = tempDir('tg-mistake-');
    const index = join(dir, 'index.json');
    writeFileSync(index, '{"schema": "someone/else@3", "rows": []}');
    const { code, stderr } = await run([
      'run',
      ...model,
      '--instances',
      FIXTURE_SUITE,
      '--history',
      dir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `tracegate: --history ${dir}: ${index} is not a tracegate history index (schema "someone/else@3"); refusing to write over it.`,
    );
  });

  it('a history written by a newer tracegate is refused, naming its version', async () => {
    const dir = tempDir('tg-mistake-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.json'), '{"schema": "tracegate/history@9", "rows": []}');
    const { code, stderr } = await run([
      'run',
      ...model,
      '--instances',
      FIXTURE_SUITE,
      '--history',
      dir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('tracegate/history@9');
  });
});
