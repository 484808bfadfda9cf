/** Environments resolved once each, on first use, on a backend created once, on first use. */
import type { Environment, ResolvedEnvironment } from '../../contracts/environment.js';
import { environmentDigest } from './environment-digest.js';
import { messageOf } from '../../errors.js';
import type { HarvestBackend } from '../../contracts/harvest-backend.js';
import type { EnvGroup } from './env-groups.js';
import type { HarvestDeps } from './types.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import type { ResolvedSource } from '../../contracts/environment.js';

/** The memo key of an environment: its recipe, its host-resolved source (not where it is checked out), the backend choice. */
function memoKey(recipe: Environment, source: ResolvedSource | undefined, choice: string): string {
  return sha256(
    canonicalJson(recipe),
    canonicalJson(source ? { ...source, checkout: undefined } : null),
    choice,
  );
}

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
    private readonly deps: Pick<
      HarvestDeps,
      'backend' | 'sources' | 'signal' | 'runtimes' | 'backendChoice'
    >,
  ) {}

  private readonly sources = new Map<number, Promise<ResolvedSource | undefined>>();

  private source(i: number): Promise<ResolvedSource | undefined> {
    let source = this.sources.get(i);
    if (!source) {
      const group = this.groups[i]!;
      source = this.deps.sources.resolve(group.recipe, group.environmentDir);
      source.catch(() => undefined); // reported where it is awaited
      this.sources.set(i, source);
    }
    return source;
  }

  /**
   * Group `i`'s environment as it last resolved on an engine (the memo), without
   * one; undefined when never resolved with this backend choice.
   */
  async remembered(i: number): Promise<ResolvedEnvironment | undefined> {
    const memo = this.deps.runtimes;
    if (!memo) return undefined;
    const recipe = this.groups[i]!.recipe;
    const hit = memo.get(memoKey(recipe, await this.source(i), this.deps.backendChoice ?? ''));
    if (!hit) return undefined;
    return {
      recipe,
      source: hit.source,
      runtime: hit.runtime,
      digest: environmentDigest(recipe, hit.source, hit.runtime),
    };
  }

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
      resolution = (async () => {
        const [backend, source] = await Promise.all([this.backend(), this.source(i)]);
        const { runtime, source: resolved } = await backend.runtime(group.recipe, source);
        const env: ResolvedEnvironment = {
          recipe: group.recipe,
          source: resolved,
          runtime,
          digest: '',
        };
        env.digest = environmentDigest(group.recipe, resolved, runtime);
        const key = memoKey(group.recipe, source, this.deps.backendChoice ?? '');
        this.deps.runtimes?.put(key, { runtime, source: resolved });
        return env;
      })();
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
