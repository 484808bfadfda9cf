/**
 * The images environments run on: a recipe's prebuilt image (pulled when
 * missing), or `tracegate-env:<digest>` built once on its base image from
 * wheels resolved on the host.
 */
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../../../contracts/environment.js';
import type { ImageShelf } from '../../../contracts/ports.js';
import { HarvestError, messageOf } from '../../../errors.js';
import { copyWheels, ensureWheelFiles } from '../../environments/sources.js';
import { defaultBaseImage, obtainBaseImage } from '../base-image.js';
import { dockerfile, wheelLayers } from '../dockerfile.js';
import { ImageBuildError, type ContainerClient, type RegistryAuth } from './container-client.js';
import { checkImageArchive, withoutBaseLayers } from './image-archive.js';
import { ownedTempDir } from '../temp-dirs.js';

/** Where a git source's checkout sits in an environment image. */
export const CHECKOUT = '/testbed';

export interface EnvironmentImagesOptions {
  /** Base image for every environment (else `python:<python>-slim`, or the recipe's own). */
  baseImage?: string;
  log: (message: string) => void;
  /** Where built images are kept for the next fresh machine (none: each machine builds its own). */
  shelf?: ImageShelf;
  /**
   * A registry repository (`host[:port]/path`) holding environment images under content tags:
   * pulled before a build, pushed after one when `push` (a push run that may write packages).
   */
  registry?: ImageRegistry;
}

/** Where environment images are pulled from and pushed to, and with which credentials. */
export interface ImageRegistry {
  repository: string;
  push: boolean;
  auth?: RegistryAuth;
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
    const { shelf, registry } = this.options;
    const named = registry && (await this.registryName(registry, env, base));
    if (registry && named && (await this.pulled(registry, named, tag, env))) return tag;
    const key = shelf && (await this.shelfKey(env, base));
    if (shelf && key && (await this.load(shelf, key, tag, env))) return tag;
    this.options.log(`Building ${tag} for environment "${env.recipe.name}" on ${base}`);
    const started = Date.now();
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
    this.options.log(`Built ${tag} in ${seconds(started)} s`);
    if (registry?.push && named) await this.pushed(registry, named, tag, env);
    if (shelf && key) await this.keep(shelf, key, tag, base, env);
    return tag;
  }

  /**
   * The image's name in the registry: its tag is what the image is built from (the environment's
   * digest, which keys its oracles) and the exact base it is built on, so a changed recipe, wheel
   * or base is another tag and a stale image is never pulled.
   */
  private async registryName(
    registry: ImageRegistry,
    env: ResolvedEnvironment,
    base: string,
  ): Promise<string | undefined> {
    const id = await this.client.imageId(base).catch(() => undefined);
    if (!id) return undefined;
    return `${registry.repository}:${env.digest.slice(0, 16)}-${id.replace(/^sha256:/, '').slice(0, 12)}`;
  }

  /** Pulls the environment's image from the registry and tags it; whether that worked (else a build). */
  private async pulled(
    registry: ImageRegistry,
    name: string,
    tag: string,
    env: ResolvedEnvironment,
  ): Promise<boolean> {
    const started = Date.now();
    const pulled = await this.client.pull(name, 300_000, registry.auth);
    if (!pulled.ok) {
      this.options.log(
        `Environment "${env.recipe.name}": ${name} is not in the registry (${pulled.reason}); building it` +
          (registry.push ? ', then pushing it' : ''),
      );
      return false;
    }
    await this.client.tag(name, tag);
    this.options.log(
      `Pulled ${name} for environment "${env.recipe.name}" (${seconds(started)} s) instead of building it`,
    );
    return true;
  }

  /** Pushes a built image to the registry; a refusal is said, never fails the run. */
  private async pushed(
    registry: ImageRegistry,
    name: string,
    tag: string,
    env: ResolvedEnvironment,
  ): Promise<void> {
    const started = Date.now();
    try {
      await this.client.tag(tag, name);
      await this.client.push(name, registry.auth);
      this.options.log(
        `Pushed ${name} for environment "${env.recipe.name}" (${seconds(started)} s)`,
      );
    } catch (error) {
      this.options.log(
        `The image of environment "${env.recipe.name}" was not pushed to ${registry.repository} ` +
          `(${messageOf(error)}); the next runner builds it again. A push needs write access ` +
          '(packages: write for ghcr.io) and never runs on a pull request.',
      );
    }
  }

  /**
   * An image's key on the shelf: what it is built from (its digest) and the
   * exact base it was built on (a base pulled anew since is another key).
   */
  private async shelfKey(env: ResolvedEnvironment, base: string): Promise<string | undefined> {
    const id = await this.client.imageId(base).catch(() => undefined);
    if (!id) return undefined;
    return `tracegate-image-v1-${env.digest.slice(0, 16)}-${id.replace(/^sha256:/, '').slice(0, 12)}`;
  }

  /**
   * Loads the shelved archive of `tag`, checked first: loading it must tag
   * `tag` and nothing else (the engine checks each layer against the
   * image's config). Whether it did; any failure means a build, said so.
   */
  private async load(
    shelf: ImageShelf,
    key: string,
    tag: string,
    env: ResolvedEnvironment,
  ): Promise<boolean> {
    const started = Date.now();
    const scratch = ownedTempDir('build');
    try {
      if (!(await shelf.take(key))) return false;
      const size = statSync(shelf.fileOf(key)).size;
      const tar = join(scratch, 'image.tar');
      await pipeline(
        createReadStream(shelf.fileOf(key)),
        createGunzip(),
        atMost(unpackedLimit(size)),
        createWriteStream(tar),
      );
      checkImageArchive(tar, tag);
      await this.client.loadImage(tar);
      if (!(await this.client.imageExists(tag))) throw new Error(`the engine did not tag ${tag}`);
      this.options.log(
        `Loaded ${tag} for environment "${env.recipe.name}" from the Actions cache ` +
          `(${(size / 1048576).toFixed(0)} MB, ${seconds(started)} s) instead of building it`,
      );
      return true;
    } catch (error) {
      this.options.log(
        `The cached image of environment "${env.recipe.name}" was not used (${messageOf(error)}); building it instead.`,
      );
      return false;
    } finally {
      shelf.release(key);
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** Shelves the built image without its base's layers (the runner has the base), compressed. */
  private async keep(
    shelf: ImageShelf,
    key: string,
    tag: string,
    base: string,
    env: ResolvedEnvironment,
  ): Promise<void> {
    const scratch = ownedTempDir('build');
    try {
      const whole = join(scratch, 'whole.tar');
      const own = join(scratch, 'own.tar');
      await this.client.saveImage(tag, whole);
      withoutBaseLayers(whole, own, await this.client.imageLayers(base));
      rmSync(whole);
      await pipeline(createReadStream(own), createGzip(), createWriteStream(shelf.fileOf(key)));
      await shelf.put(key, `environment "${env.recipe.name}"`);
    } catch (error) {
      this.options.log(
        `The image of environment "${env.recipe.name}" was not cached (${messageOf(error)}); the next fresh runner builds it again.`,
      );
    } finally {
      shelf.release(key);
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}

const seconds = (since: number): string => ((Date.now() - since) / 1000).toFixed(1);

/**
 * How large a shelved archive may grow when unpacked: image layers compress
 * three to five times, so far more means a crafted archive filling the disk.
 */
function unpackedLimit(compressed: number): number {
  return Math.min(Math.max(64 * 1048576, compressed * 20), 10 * 1024 ** 3);
}

/** Passes bytes through until more than `limit` have passed, then fails the stream. */
function atMost(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit)
        done(new Error(`it unpacks to more than ${(limit / 1048576).toFixed(0)} MB`));
      else done(null, chunk);
    },
  });
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
