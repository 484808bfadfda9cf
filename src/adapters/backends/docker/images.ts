/**
 * The images environments run on: a recipe's prebuilt image (pulled when
 * missing), or `tracegate-env:<digest>` built once on its base image from
 * wheels resolved on the host.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../../../contracts/environment.js';
import { HarvestError } from '../../../errors.js';
import { copyWheels, ensureWheelFiles } from '../../environments/sources.js';
import { defaultBaseImage, obtainBaseImage } from '../base-image.js';
import { dockerfile, wheelLayers } from '../dockerfile.js';
import { ImageBuildError, type ContainerClient } from './container-client.js';
import { ownedTempDir } from '../temp-dirs.js';

/** Where a git source's checkout sits in an environment image. */
export const CHECKOUT = '/testbed';

export interface EnvironmentImagesOptions {
  /** Base image for every environment (else `python:<python>-slim`, or the recipe's own). */
  baseImage?: string;
  log: (message: string) => void;
}

/** Each base image obtained, and each environment image built, once per run. */
export class EnvironmentImages {
  private readonly bases = new Map<string, Promise<{ image: string; note: string }>>();
  private readonly images = new Map<string, Promise<string>>();

  constructor(
    private readonly client: ContainerClient,
    private readonly options: EnvironmentImagesOptions,
  ) {}

  /** The image an environment runs on: its own prebuilt one, or the base its image builds on. */
  async runtime(
    recipe: Environment,
    source: ResolvedSource | undefined,
  ): Promise<{ runtime: Runtime; source: ResolvedSource }> {
    if (recipe.image) return this.prebuilt(recipe, recipe.image.ref);
    const python = recipe.python!;
    const requested = recipe.base_image ?? this.options.baseImage ?? defaultBaseImage(python);
    const isDefault = !recipe.base_image && !this.options.baseImage;
    let base = this.bases.get(requested);
    if (!base) {
      base = obtainBaseImage(this.client, requested, python, isDefault, this.options.log);
      this.bases.set(requested, base);
    }
    const { image, note } = await base;
    return { source: source!, runtime: { backend: 'docker', image, note } };
  }

  private async prebuilt(
    recipe: Environment,
    ref: string,
  ): Promise<{ runtime: Runtime; source: ResolvedSource }> {
    if (!(await this.client.imageExists(ref))) {
      const pulled = await this.client.pull(ref);
      if (!pulled.ok)
        throw new HarvestError(
          `Environment "${recipe.name}": image "${ref}" is not present and could not be pulled (${pulled.reason}). ` +
            "Pull or load it (docker load), or change the environment's image.ref.",
        );
    }
    const id = await this.client.imageId(ref);
    return {
      source: { kind: 'image', ref, imageId: id },
      runtime: {
        backend: 'docker',
        image: ref,
        note: `prebuilt image ${ref} (${id.slice(0, 19)})`,
      },
    };
  }

  /** The environment's image, built once however many jobs ask for it at the same time. */
  ensure(env: ResolvedEnvironment): Promise<string> {
    let image = this.images.get(env.digest);
    if (!image) {
      image = this.build(env);
      this.images.set(env.digest, image);
      image.catch(() => this.images.delete(env.digest));
    }
    return image;
  }

  /** Builds `tracegate-env:<digest>` unless it exists (or uses a prebuilt image); never touches the network. */
  private async build(env: ResolvedEnvironment): Promise<string> {
    if (env.source.kind === 'image') return env.source.imageId;
    const tag = `tracegate-env:${env.digest.slice(0, 16)}`;
    if (await this.client.imageExists(tag)) return tag;
    const base = env.runtime.backend === 'docker' ? env.runtime.image : '';
    this.options.log(`Building ${tag} for environment "${env.recipe.name}" on ${base}`);
    const context = ownedTempDir('build');
    try {
      const src = await buildContext(context, env, env.source, base);
      await this.client.build(context, src, tag).catch((error: unknown) => {
        if (!(error instanceof ImageBuildError)) throw error;
        throw new HarvestError(
          `Building the image for environment "${env.recipe.name}" failed: ${error.message}`,
        );
      });
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
    return tag;
  }
}

/** Writes the build context (Dockerfile, wheels, checkout) into `context`; the entries to send. */
async function buildContext(
  context: string,
  env: ResolvedEnvironment,
  source: Exclude<ResolvedSource, { kind: 'image' }>,
  base: string,
): Promise<string[]> {
  await ensureWheelFiles(env.recipe, source.wheels);
  const { runner, own } = wheelLayers(source.wheels);
  copyWheels(own, join(context, 'wheels'));
  mkdirSync(join(context, 'wheels'), { recursive: true });
  const src = ['Dockerfile', 'wheels'];
  if (runner.length) {
    copyWheels(runner, join(context, 'runner-wheels'));
    src.push('runner-wheels');
  }
  if (source.kind === 'git') {
    // The exported tree of the commit, copied as it is (symlinks stay links).
    await copyTree(source.checkout, join(context, 'checkout'));
    src.push('checkout');
  }
  writeFileSync(join(context, 'Dockerfile'), dockerfile(base, env, CHECKOUT));
  return src;
}

async function copyTree(from: string, to: string): Promise<void> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  mkdirSync(to, { recursive: true });
  await promisify(execFile)('cp', ['-a', `${from}/.`, to]);
}
