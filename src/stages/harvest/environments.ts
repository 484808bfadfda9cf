/** Environments resolved once each, on first use, on a backend created once, on first use. */
import type { Environment, ResolvedEnvironment } from '../../contracts/environment.js';
import { environmentDigest } from './environment-digest.js';
import { messageOf } from '../../errors.js';
import type { HarvestBackend } from '../../contracts/harvest-backend.js';
import type { EnvGroup } from './env-groups.js';
import type { HarvestDeps } from './types.js';

/**
 * An environment resolved once: its source (wheels, commit, image), its
 * runtime (base image or host interpreter), and the digest of both that
 * keys its oracles.
 */
export async function resolveEnvironment(
  recipe: Environment,
  environmentDir: string,
  sources: HarvestDeps['sources'],
  backend: HarvestBackend,
): Promise<ResolvedEnvironment> {
  const source = await sources.resolve(recipe, environmentDir);
  const { runtime, source: resolved } = await backend.runtime(recipe, source);
  const env: ResolvedEnvironment = { recipe, source: resolved, runtime, digest: '' };
  env.digest = environmentDigest(recipe, resolved, runtime);
  return env;
}

/**
 * The harvest's backend (created and checked on first use) and its groups'
 * environments, each resolved on first use: the next one's while this one's
 * runs go (prefetch).
 */
export class LazyEnvironments {
  private made?: HarvestBackend;
  private readonly resolutions = new Map<number, Promise<ResolvedEnvironment>>();

  constructor(
    private readonly groups: EnvGroup[],
    private readonly deps: Pick<HarvestDeps, 'backend' | 'sources' | 'signal'>,
  ) {}

  async backend(): Promise<HarvestBackend> {
    if (!this.made) {
      this.made = this.deps.backend();
      await this.made.ensureAvailable();
    }
    return this.made;
  }

  /** Group `i`'s environment, resolved once. */
  resolved(i: number): Promise<ResolvedEnvironment> {
    let resolution = this.resolutions.get(i);
    if (!resolution) {
      const group = this.groups[i]!;
      resolution = this.backend().then((b) =>
        resolveEnvironment(group.recipe, group.environmentDir, this.deps.sources, b),
      );
      resolution.catch(() => undefined); // reported where it is awaited
      this.resolutions.set(i, resolution);
    }
    return resolution;
  }

  /** Group `i`'s environment resolved, and its image built if it has misses, in the background. */
  prefetch(i: number, hasMisses: (group: EnvGroup, env: ResolvedEnvironment) => boolean): void {
    if (i >= this.groups.length || this.deps.signal?.aborted) return;
    void this.resolved(i)
      .then(async (env) => {
        if (hasMisses(this.groups[i]!, env)) await (await this.backend()).prepare?.(env);
      })
      .catch(() => undefined);
  }
}

/** Why a group's environment could not be resolved, with the SWE-Flux image hint where one applies. */
export function unresolvedReason(group: EnvGroup, error: unknown): string {
  const named = group.items[0]?.sweFlux?.image; // a SWE-Flux run's image, mapped or not
  return (
    `environment "${group.recipe.name}" could not be resolved: ${messageOf(error)}` +
    (named
      ? ` The SWE-Flux run names the image "${named}": map it to a local image with ` +
        `--swe-flux-images "${named}=IMAGE" (Action input swe-flux-images).`
      : '')
  );
}
