import { join } from 'node:path';
import { AutoBackend } from '../../adapters/backends/auto.js';
import { DockerBackend } from '../../adapters/backends/docker/backend.js';
import { registryAuth } from '../../adapters/backends/docker/registry-auth.js';
import { LocalBackend } from '../../adapters/backends/local.js';
import { HostSources } from '../../adapters/environments/sources.js';
import type { HarvestBackend } from '../../contracts/harvest-backend.js';
import type { ModelClient } from '../../contracts/model.js';
import { tracerDigest } from '../../adapters/tracer/digest.js';
import { TimeBudget } from '../../adapters/model/budget.js';
import { HeuristicClient } from '../../adapters/heuristic-model/client.js';
import { createModelClient } from '../../adapters/model/factory.js';
import { bundledInstancesDir, tracerDir } from '../../paths.js';
import { selectInstances } from '../../stages/select/select.js';
import { cacheLayout } from '../../adapters/stores/layout.js';
import { assertWritable } from '../../adapters/stores/atomic.js';
import { DirOracleCache } from '../../adapters/stores/oracle-cache.js';
import type { BaselineSource, ImageShelf, Stores } from '../../contracts/ports.js';
import { DirSourceViews } from '../../adapters/stores/source-views.js';
import { DirVerifications } from '../../adapters/stores/verifications.js';
import { DirFailures } from '../../adapters/stores/failures.js';
import { DirQuarantine } from '../../adapters/stores/quarantine.js';
import { DirRuntimeMemo } from '../../adapters/stores/runtime-memo.js';
import { DirResponseCache } from '../../adapters/stores/response-cache.js';
import { ResultsDir } from '../../adapters/stores/results-dir.js';
import { loadSweFluxSuite, parseImageMap, sweFluxDir } from '../../adapters/suite/swe-flux.js';
import { loadSuite } from '../../adapters/suite/load.js';
import { InstanceError, UsageError } from '../../errors.js';
import type { Cleanups } from '../../util/cleanups.js';
import {
  DEFAULT_MIN_CLUSTERS,
  DEFAULT_MIN_ITEMS,
  type GatePolicy,
} from '../../stages/compare/gate.js';
import { SCORERS } from '../../stages/score/scorer.js';
import { DEFAULT_WORLD_FACTOR } from '../../families/world/score.js';
import type { GateOptions, HarvestOptions, RunOptions } from './options.js';
import type { LoadedInstance, RejectedFile, Suite } from '../../contracts/suite.js';
import type { RunDeps, RunInput } from '../run-input.js';
import type { EnvironmentSources } from '../../contracts/environment.js';
import type { HarvestDeps } from '../../stages/harvest/types.js';
import { selectionRecord } from './selection.js';

export interface Logger {
  log: (message: string) => void;
  warn: (message: string) => void;
  /**
   * A phase of the run begins (selection, endpoint check, harvest, queries,
   * compare and report): the Action opens a log group for it, closing the
   * previous one; the CLI's log has none.
   */
  phase?: (name: string) => void;
  /** Housekeeping lines a user need not read (the Action's step debug log; the CLI shows none). */
  debug?: (message: string) => void;
}

/** What an entry point holds to stop a run cleanly: the abort signal and the pending undos. */
export interface Lifecycle {
  signal?: AbortSignal;
  cleanups?: Cleanups;
}

/**
 * Where tests run and who answers. The doors leave both out (the options
 * build the real ones: Docker or a virtualenv, the endpoint's client); a
 * test passes its own.
 */
export interface Engines {
  backend?: () => HarvestBackend;
  /** Where environments' packages come from (default: the cache directory, pip's wheelhouse). */
  sources?: EnvironmentSources;
  client?: ModelClient;
  /** Where built environment images are kept between fresh machines (the Action: the Actions cache). */
  images?: ImageShelf;
  /**
   * Credentials for the environment-image registry when Docker's config has none (the Action:
   * github-token for ghcr.io), passed as a value: never through the process environment.
   */
  registryCredentials?: { username: string; password: string };
}

/** What `run`, `harvest` and the Action select from by default: the whole bundled benchmark. */
export const defaultInstancesDir = (): string => bundledInstancesDir();
/**
 * The demo's suite: click's, of which the demo asks the test-outcome items
 * (36: six tests and their seeded mutants, one environment, about 35 s to
 * harvest on a fresh machine once the base image exists).
 */
export const demoInstancesDir = (): string => join(bundledInstancesDir(), 'click');

/** A suite directory, or a SWE-Flux run directory (its image names mapped by `swe-flux-images`). */
export function loadAnySuite(dir: string, sweFluxImages?: string): Suite {
  const qaDir = sweFluxDir(dir);
  return qaDir ? loadSweFluxSuite(qaDir, parseImageMap(sweFluxImages)) : loadSuite(dir);
}

/** Loads the suite and selects from it, once; the cache keys and the run use this same selection. */
export function loadSelection(
  options: HarvestOptions,
  logger?: Logger,
): { suite: Suite; selected: LoadedInstance[] } {
  const suite = loadAnySuite(
    options.instances ?? defaultInstancesDir(),
    options['swe-flux-images'],
  );
  for (const r of suite.rejected) logger?.warn(`Skipping ${r.reason}`);
  if (!suite.instances.length && suite.rejected.length) {
    const first = suite.rejected[0]!;
    throw new InstanceError(
      first.file,
      `no instance of the suite could be loaded (${suite.rejected.length} file(s) rejected, above; ` +
        `the first: ${first.reason.replace(`${first.file}: `, '')})`,
    );
  }
  const selected = selectInstances(suite.instances, {
    categories: options.categories,
    ids: options.ids,
    sample: options.sample,
    seed: options.seed ?? 0,
  });
  // A sample past the selection is a typo more often than a wish to run everything (5000 for 500):
  // the most expensive path is never started on one.
  if (options.sample !== undefined && options.sample > selected.length)
    throw new UsageError(
      `--sample ${options.sample} is more than the ${selected.length} instance(s) ` +
        `${options.categories || options.ids ? 'the suite and the other filters leave' : 'the suite holds'}: give at most ` +
        `${selected.length}, or leave --sample unset to run all of them. Nothing ran.`,
    );
  return { suite, selected };
}

/** The gate's policy from its options (the same for `run`, the Action and `compare`). */
export function toGatePolicy(options: GateOptions): GatePolicy {
  return {
    minDrop: options['min-drop'],
    minGain: options['min-gain'],
    alpha: options.alpha,
    clusterBy: options['cluster-by'],
    gate: options.gate,
    maxExcluded: options['max-excluded'],
    minItems: DEFAULT_MIN_ITEMS,
    minClusters: DEFAULT_MIN_CLUSTERS,
  };
}

/**
 * What a top-up may add: the suite's instances within the run's categories and
 * ids that the seeded sample left out. (The pipeline keeps those the baseline scored.)
 */
export function topUpPool(
  suite: Suite,
  options: HarvestOptions,
  selected: LoadedInstance[],
): LoadedInstance[] {
  const chosen = new Set(selected.map((s) => s.instance.id));
  const inScope = selectInstances(suite.instances, {
    categories: options.categories,
    ids: options.ids,
  });
  return inScope.filter((l) => !chosen.has(l.instance.id));
}

/** The scorer a run's answers are scored by; a non-default world-model factor is another rule. */
export function scorerId(options: RunOptions): string {
  return (
    SCORERS[options.scoring].id +
    (options['world-factor'] === DEFAULT_WORLD_FACTOR
      ? ''
      : `+world-factor=${options['world-factor']}`)
  );
}

export function toRunInput(
  options: RunOptions,
  selected: LoadedInstance[],
  commit?: string,
  rejected?: RejectedFile[],
  pool: LoadedInstance[] = [],
): RunInput {
  return {
    selection: {
      selected,
      ...(rejected ? { rejected } : {}),
      ...(options['top-up'] > 0
        ? { topUp: { pool, max: options['top-up'], seed: options.seed ?? 0 } }
        : {}),
      ...(options.variants
        ? { variants: { mode: options.variants, epoch: selectionRecord(options).variants!.epoch } }
        : {}),
      recorded: selectionRecord(options),
    },
    harvest: { tracerDigest: tracerDigest(tracerDir()) },
    query: {
      model: {
        endpoint: options.endpoint,
        name: options.model,
        revision: options['model-revision'] ?? commit,
      },
      config: {
        samples: options.samples,
        prompt: { mode: options.context, budget: options['context-budget'] },
        ...(options.context === 'repo'
          ? {
              toolBudget: {
                turns: options['tool-turns'],
                calls: options['tool-calls'],
                resultBytes: options['tool-result-bytes'],
                tokens: options['tool-tokens'],
              },
            }
          : {}),
        concurrency: options.concurrency,
        scoring: options.scoring,
        worldFactor: options['world-factor'],
      },
      ...(options.price ? { price: options.price } : {}),
      ...(options.preflight ? {} : { preflight: false }),
      ...(options['endpoint-wait'] ? { endpointWait: options['endpoint-wait'] } : {}),
    },
    gate: {
      policy: toGatePolicy(options),
      // A non-default world-model factor is another rule: runs under it are not compared with others.
      scorer: scorerId(options),
    },
    report: { ...(commit ? { commit } : {}) },
  };
}

/**
 * The harvest backend, created on first use. `auto` prefers Docker and falls
 * back to a local virtualenv, saying so.
 */
export function backendFactory(
  options: HarvestOptions,
  logger: Logger,
  lifecycle: Lifecycle = {},
  engines: Pick<Engines, 'images' | 'registryCredentials'> = {},
): () => HarvestBackend {
  const shelf = engines.images;
  let backend: HarvestBackend | undefined;
  const layout = cacheLayout(options.cache);
  const repository = options['image-registry'];
  const docker = () =>
    new DockerBackend({
      ...(options['docker-host'] ? { host: options['docker-host'] } : {}),
      baseImage: options['base-image'],
      tracerDir: tracerDir(),
      log: logger.log,
      cleanups: lifecycle.cleanups,
      ...(shelf ? { shelf } : {}),
      ...(repository
        ? {
            registry: {
              repository,
              // `auto` is a push here; the Action makes it false on pull requests (never from a fork).
              push: options['image-registry-push'] !== 'false',
              auth: registryAuth(repository, process.env, engines.registryCredentials),
            },
          }
        : {}),
    });
  const local = () =>
    new LocalBackend({
      tracerDir: tracerDir(),
      venvRoot: layout.venvs,
      log: logger.log,
      cleanups: lifecycle.cleanups,
    });
  return () => {
    if (backend) return backend;
    if (options.backend === 'docker') backend = docker();
    else if (options.backend === 'local') backend = local();
    else backend = new AutoBackend(docker(), local, logger.warn);
    return backend;
  };
}

/** Where environments resolve and run, for a suite. */
export function harvestDeps(
  options: HarvestOptions,
  logger: Logger,
  suite: Suite,
  lifecycle: Lifecycle = {},
  engines: Pick<Engines, 'images' | 'registryCredentials'> = {},
): Pick<
  HarvestDeps,
  'backend' | 'sources' | 'shareRuns' | 'runtimes' | 'backendChoice' | 'retryFailed'
> {
  return {
    backend: backendFactory(options, logger, lifecycle, engines),
    retryFailed: options['retry-failed'],
    sources: new HostSources(cacheLayout(options.cache), suite.reader, logger.log),
    runtimes: new DirRuntimeMemo(cacheLayout(options.cache).runtimes),
    backendChoice: `${options.backend}|${options['base-image'] ?? 'default-base'}`,
    // A benchmarking knob (docs/benchmarks.md), not an option: the answers are the same either way.
    shareRuns: process.env.TRACEGATE_SHARE_RUNS !== '0',
  };
}

/** The cache directory's oracle store and quarantine. */
export function oracleStores(
  options: HarvestOptions,
  logger: Logger,
): Pick<Stores, 'oracles' | 'quarantine' | 'failures'> {
  const layout = cacheLayout(options.cache);
  assertWritable(options.cache); // a full or read-only cache fails now, saying so
  return {
    oracles: new DirOracleCache(layout.oracles, logger.warn),
    quarantine: new DirQuarantine(layout.quarantine),
    failures: new DirFailures(layout.failures),
  };
}

/** The local stores: the cache directory's oracles, quarantine and responses; the output directory. */
export function localStores(options: RunOptions, logger: Logger): Stores {
  const layout = cacheLayout(options.cache);
  return {
    ...oracleStores(options, logger),
    results: new ResultsDir(options.out),
    // The baseline source is the entry point's (a file, or the history: config/history.ts).
    // Replies live beside the oracles, so one cache directory restores both.
    responses: new DirResponseCache(layout.responses),
    verifications: new DirVerifications(layout.verifications),
    views: new DirSourceViews(layout.views, logger.warn),
  };
}

export function toRunDeps(
  options: RunOptions,
  logger: Logger,
  suite: Suite,
  lifecycle: Lifecycle = {},
  /** Where the baseline comes from: a file or the history (config/history.ts baselineSource). */
  baseline?: BaselineSource,
  engines: Engines = {},
): RunDeps {
  const budget = options['time-budget'];
  const harvest = harvestDeps(options, logger, suite, lifecycle, engines);
  return {
    ...logger,
    signal: lifecycle.signal,
    harvest: {
      ...harvest,
      ...(engines.backend ? { backend: engines.backend } : {}),
      ...(engines.sources ? { sources: engines.sources } : {}),
    },
    client:
      engines.client ??
      createModelClient({
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
    screen: new HeuristicClient(),
    stores: { ...localStores(options, logger), ...(baseline ? { baseline } : {}) },
  };
}
