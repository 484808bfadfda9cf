import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../../src/doors/cli/commands.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const FIXTURE_SUITE = join(FIXTURES, 'suite');

export function tempDir(prefix = 'tg-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs the CLI in-process, capturing what it prints. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await cli(argv, {
    stdout: (t) => (stdout += t + '\n'),
    stderr: (t) => (stderr += t + '\n'),
    env,
  });
  return { code, stdout, stderr };
}
