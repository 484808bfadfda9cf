/** The harvest's outcomes as they come in, and the summary they add up to. */
import type { ResolvedEnvironment } from '../../contracts/environment.js';
import type { HarvestOutcome } from '../../contracts/oracle.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import type { HarvestSummary } from './types.js';

export class HarvestTally {
  private readonly outcomes = new Map<string, HarvestOutcome>();
  private readonly environments: HarvestSummary['environments'] = [];
  private readonly used = new Set<string>();
  private readonly resolved = new Map<string, ResolvedEnvironment>();
  private cached = 0;
  private remembered = 0;

  set(id: string, outcome: HarvestOutcome): void {
    this.outcomes.set(id, outcome);
  }

  /**
   * An outcome from the cache: counted as cached when it is an oracle; one the
   * cache held but that is kept out (a SWE-Flux re-run that does not reproduce
   * its published oracle) counts as failed only, so the counts add up.
   */
  hit(id: string, outcome: HarvestOutcome): void {
    this.outcomes.set(id, outcome);
    if (outcome.status === 'ok') this.cached++;
  }

  /** A failure remembered from an earlier run (not harvested again): failed, and counted apart. */
  remember(id: string, outcome: HarvestOutcome): void {
    this.outcomes.set(id, outcome);
    this.remembered++;
  }

  /** The same error for every instance given. */
  failAll(items: LoadedInstance[], reason: string): void {
    for (const item of items) this.outcomes.set(item.instance.id, { status: 'error', reason });
  }

  /** An environment resolved, in the order they were, with the instances it resolved for. */
  environment(env: ResolvedEnvironment, items: readonly LoadedInstance[]): void {
    for (const item of items) this.resolved.set(item.instance.id, env);
    this.environments.push({
      name: env.recipe.name,
      digest: env.digest,
      source: env.source.kind,
      runtime: env.runtime.note,
    });
  }

  /** A backend that harvested misses. */
  usedBackend(name: string): void {
    this.used.add(name);
  }

  summary(): HarvestSummary {
    const failed = [...this.outcomes.values()].filter((o) => o.status !== 'ok').length;
    return {
      outcomes: this.outcomes,
      cached: this.cached,
      harvested: this.outcomes.size - this.cached - failed,
      failed,
      ...(this.remembered ? { remembered: this.remembered } : {}),
      backend: this.used.size ? [...this.used].sort().join('+') : 'cache',
      environments: this.environments,
      resolved: this.resolved,
    };
  }
}
