import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../../contracts/environment.js';
import { messageOf } from '../../errors.js';
import type { HarvestBackend, HarvestJob } from '../../contracts/harvest-backend.js';

/**
 * Docker where it can (an engine answers and the environment's image can be
 * had), else the local backend for that environment, with a loud notice.
 */
export class AutoBackend implements HarvestBackend {
  readonly name = 'auto';
  private dockerUp?: boolean;
  private localBackend?: HarvestBackend;

  constructor(
    private readonly docker: HarvestBackend,
    private readonly makeLocal: () => HarvestBackend,
    private readonly warn: (message: string) => void,
  ) {}

  private get local(): HarvestBackend {
    this.localBackend ??= this.makeLocal();
    return this.localBackend;
  }

  async ensureAvailable(): Promise<void> {
    try {
      await this.docker.ensureAvailable();
      this.dockerUp = true;
    } catch (error) {
      this.dockerUp = false;
      this.warn(
        `${messageOf(error).split('.')[0]}. Harvesting in a local virtualenv instead: ` +
          "the instances' tests run on this host WITHOUT container isolation.",
      );
      await this.local.ensureAvailable();
    }
  }

  async runtime(
    recipe: Environment,
    source: ResolvedSource | undefined,
  ): Promise<{ runtime: Runtime; source: ResolvedSource }> {
    if (this.dockerUp) {
      try {
        return await this.docker.runtime(recipe, source);
      } catch (error) {
        if (recipe.image) throw error;
        this.warn(
          `Environment "${recipe.name}": ${messageOf(error)} Harvesting it in a local virtualenv instead: ` +
            'its tests run on this host WITHOUT container isolation.',
        );
      }
    }
    return this.local.runtime(recipe, source);
  }

  async prepare(env: ResolvedEnvironment): Promise<void> {
    const backend = env.runtime.backend === 'docker' ? this.docker : this.local;
    await backend.prepare?.(env);
  }

  run(job: HarvestJob): Promise<string> {
    return job.environment.runtime.backend === 'docker'
      ? this.docker.run(job)
      : this.local.run(job);
  }
}
