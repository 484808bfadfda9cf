import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HarvestError } from '../../errors.js';
import { packageRoot } from '../../paths.js';
import type { ContainerClient } from './docker/container-client.js';

const run = promisify(execFile);

/** The default base image: the official Python image of the environment's interpreter. */
export const defaultBaseImage = (python: string): string => `python:${python}-slim`;

/**
 * Local stand-ins for the official images where no registry answers: Debian
 * releases whose python3 has the same minor version, built by
 * scripts/build-base-image.sh with debootstrap from Debian's packages.
 */
export const LOCAL_BASES: Record<string, { image: string; suite: string }> = {
  '3.11': { image: 'tracegate/base:bookworm', suite: 'bookworm' },
  '3.13': { image: 'tracegate/base:trixie', suite: 'trixie' },
};

/**
 * The base image an environment builds on, obtained once per run: the
 * requested image when present; else pulled; else — only for the default
 * official image — the local Debian stand-in, built with debootstrap when
 * missing and possible. Says which, in `note`.
 */
export async function obtainBaseImage(
  images: Pick<ContainerClient, 'imageExists' | 'pull'>,
  requested: string,
  python: string,
  isDefault: boolean,
  log: (message: string) => void,
): Promise<{ image: string; note: string }> {
  if (await images.imageExists(requested))
    return { image: requested, note: `${requested} (present)` };
  log(`Base image ${requested} is not present; pulling it`);
  const pulled = await images.pull(requested);
  if (pulled.ok) return { image: requested, note: `${requested} (pulled)` };
  const local = LOCAL_BASES[python];
  if (!isDefault || !local) {
    throw new HarvestError(
      `Base image "${requested}" is not present and could not be pulled (${pulled.reason}). ` +
        `Pull or build it, or pass --base-image with an image the engine has` +
        (local
          ? ` (scripts/build-base-image.sh ${local.suite} ${local.image} builds a local one).`
          : '.'),
    );
  }
  const why = `${requested} could not be pulled (${pulled.reason})`;
  if (await images.imageExists(local.image))
    return {
      image: local.image,
      note: `${why}; using the local ${local.image} (Python ${python})`,
    };
  const script = join(packageRoot(), 'scripts', 'build-base-image.sh');
  if (!existsSync(script) || !(await hasDebootstrap())) {
    throw new HarvestError(
      `${why}, and the local stand-in ${local.image} is missing and cannot be built here ` +
        '(it needs debootstrap and root). Pull the image on a machine with a registry, or run ' +
        `scripts/build-base-image.sh ${local.suite} ${local.image}.`,
    );
  }
  log(`${why}; building the local ${local.image} with debootstrap (about a minute)`);
  try {
    await run('bash', [script, local.suite, local.image], { maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new HarvestError(
      `${why}, and building ${local.image} failed: ${String(
        (error as { stderr?: string }).stderr ?? (error as Error).message,
      )
        .trim()
        .split('\n')
        .at(-1)}`,
    );
  }
  return { image: local.image, note: `${why}; built the local ${local.image} (Python ${python})` };
}

async function hasDebootstrap(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    await run('sh', ['-c', 'command -v debootstrap']);
    return true;
  } catch {
    return false;
  }
}
