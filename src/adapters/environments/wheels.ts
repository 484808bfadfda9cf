import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { HarvestError } from '../../errors.js';

const run = promisify(execFile);

/** Linux wheel platforms a Debian bookworm/trixie image accepts, newest first. */
function platformArgs(): string[] {
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
  const tags = [
    'manylinux_2_36',
    'manylinux_2_34',
    'manylinux_2_31',
    'manylinux_2_28',
    'manylinux2014',
    'manylinux_2_17',
  ];
  return tags.flatMap((tag) => ['--platform', `${tag}_${arch}`]);
}

/**
 * Downloads pinned wheels on the host (which reaches the package index) so
 * that nothing is fetched from inside a container. The recipe is complete by
 * contract, hence --no-deps; binary wheels only, for the recipe's
 * interpreter, so the image never compiles anything. `--retries 0`: an index
 * that does not answer is skipped at once for the next configured one
 * (pip's default backs off for seconds per package).
 */
export async function downloadWheels(
  env: { name: string; python: string; packages: string[] },
  dest: string,
  python = 'python3',
): Promise<void> {
  if (!env.packages.length) return;
  const version = env.python.replace('.', '');
  const args = [
    '-m',
    'pip',
    'download',
    '--quiet',
    '--retries',
    '0',
    '--disable-pip-version-check',
    '--no-deps',
    '--only-binary=:all:',
    '--python-version',
    env.python,
    '--implementation',
    'cp',
    '--abi',
    `cp${version}`,
    '--abi',
    'abi3',
    '--abi',
    'none',
    ...platformArgs(),
    '--dest',
    dest,
    ...env.packages,
  ];
  try {
    await run(python, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '')
      .split('\n')
      .filter((line) => line.startsWith('ERROR'))
      .join(' ');
    throw new HarvestError(
      `Environment "${env.name}": could not download its wheels with pip (${stderr || (error as Error).message}). ` +
        'Check that every package is pinned to a version your package index has, with a wheel for ' +
        `Python ${env.python}.`,
    );
  }
}
