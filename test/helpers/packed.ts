import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './cli.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The package as a user gets it: `npm pack` of this checkout, installed (offline: it has no
 * dependencies, the bundle carries them) into an empty directory. Returns that directory.
 */
export function installPacked(): string {
  const packs = tempDir('tg-pack-');
  execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: ROOT });
  const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'))!;
  const dir = tempDir('tg-packed-');
  writeFileSync(join(dir, 'package.json'), '{"name":"a-user","private":true}\n');
  execFileSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(packs, tarball)],
    { cwd: dir },
  );
  return dir;
}

/** Runs a command in `cwd` with the test's PATH and HOME only; what it printed and its exit code. */
export function runIn(
  cwd: string,
  [command, ...args]: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(command!, args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
}
