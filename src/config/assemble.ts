import { join } from 'node:path';
import { DockerBackend } from '../harvest/docker-backend.js';
import { LocalBackend } from '../harvest/local-backend.js';
import type { HarvestBackend } from '../harvest/backend.js';
import { bundledInstancesDir, tracerDir } from '../paths.js';
import type { RunConfig, RunDeps } from '../pipeline.js';
import { TimeBudget } from '../query/budget.js';
import { createModelClient } from '../query/factory.js';
import { DirResponseCache } from '../query/response-cache.js';
import type { RunOptions } from './options.js';

export interface Logger {
  log: (message: string) => void;
  warn: (message: string) => void;
}

/** The bundled suite the demo and the Action use when no --instances is given. */
export const defaultInstancesDir = (): string => join(bundledInstancesDir(), 'core');

export function toRunConfig(options: RunOptions, commit?: string): RunConfig {
  return {
    instancesDir: options.instances ?? defaultInstancesDir(),
    selection: {
      categories: options.categories,
      ids: options.ids,
      sample: options.sample,
      seed: options.seed,
    },
    cacheDir: options.cache,
    outDir: options.out,
    baselineFile: options.baseline,
    policy: { minDrop: options['min-drop'], alpha: options.alpha },
    model: {
      endpoint: options.endpoint,
      name: options.model,
      revision: options['model-revision'] ?? commit,
    },
    concurrency: options.concurrency,
    query: {
      samples: options.samples,
      prompt: { mode: options.context, budget: options['context-budget'] },
    },
    baseImage: options['base-image'],
    commit,
  };
}

/**
 * The harvest backend, created on first use (a fully cached run never asks).
 * `auto` prefers Docker and falls back to a local virtualenv, saying so.
 */
export function backendFactory(options: RunOptions, logger: Logger): () => HarvestBackend {
  let backend: HarvestBackend | undefined;
  const docker = () =>
    new DockerBackend({
      baseImage: options['base-image'],
      tracerDir: tracerDir(),
      log: logger.log,
    });
  const local = () =>
    new LocalBackend({
      tracerDir: tracerDir(),
      venvRoot: join(options.cache, 'venvs'),
      log: logger.log,
    });
  return () => {
    if (backend) return backend;
    if (options.backend === 'docker') backend = docker();
    else if (options.backend === 'local') backend = local();
    else backend = new AutoBackend(docker(), local, logger);
    return backend;
  };
}

/** Docker when an engine answers, else the local backend with a loud notice. */
class AutoBackend implements HarvestBackend {
  private chosen: HarvestBackend;
  constructor(
    docker: HarvestBackend,
    private readonly local: () => HarvestBackend,
    private readonly logger: Logger,
  ) {
    this.chosen = docker;
  }
  get name(): string {
    return this.chosen.name;
  }
  get started(): number {
    return this.chosen.started;
  }
  async ensureAvailable(): Promise<void> {
    try {
      await this.chosen.ensureAvailable();
    } catch (error) {
      this.logger.warn(
        `${(error as Error).message.split('.')[0]}. Harvesting in a local virtualenv instead: ` +
          "the instances' tests run on this host WITHOUT container isolation.",
      );
      this.chosen = this.local();
      await this.chosen.ensureAvailable();
    }
  }
  run(job: Parameters<HarvestBackend['run']>[0]): Promise<void> {
    return this.chosen.run(job);
  }
}

export function toRunDeps(options: RunOptions, logger: Logger): RunDeps {
  const budget = options['time-budget'];
  return {
    ...logger,
    backend: backendFactory(options, logger),
    client: createModelClient({
      api: options.api,
      endpoint: options.endpoint,
      model: options.model,
      apiKey: options['api-key'],
      settings: {
        temperature: options.temperature,
        maxTokens: options['max-tokens'],
        topP: options['top-p'],
        seed: options['generation-seed'],
        stop: options.stop,
        extraBody: options['extra-body'],
      },
      timeoutMs: options.timeout * 1000,
      retries: options.retries,
      budget: budget === undefined ? undefined : new TimeBudget(budget * 1000),
    }),
    // Replies live beside the oracles, so one cache directory restores both.
    responseCache: new DirResponseCache(join(options.cache, 'responses')),
  };
}
