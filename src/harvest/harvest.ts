import type { Environment, ResolvedEnvironment } from '../contracts/environment.js';
import type { CachedOracle, HarvestOutcome } from '../contracts/oracle.js';
import { environmentDigest } from '../environments/digest.js';
import type { EnvironmentSources } from '../environments/sources.js';
import { DockerUnavailableError, messageOf } from '../errors.js';
import type { OracleStore, QuarantineStore } from '../contracts/ports.js';
import { canonicalJson } from '../util/hash.js';
import type { HarvestBackend, HarvestJob, PlanSpec } from './backend.js';
import { oracleKey } from './key.js';
import { entryBelongs, toOutcome } from './outcome.js';
import { agreedResult, readResultLines, type ReadResult } from './results.js';
import type { LoadedInstance } from '../contracts/suite.js';

/** What the harvest stage is given: where it resolves, runs, stores. */
export interface HarvestDeps {
  /** Created on first use. */
  backend: () => HarvestBackend;
  sources: EnvironmentSources;
  oracles: OracleStore;
  quarantine?: QuarantineStore;
  log: (message: string) => void;
  warn: (message: string) => void;
  /** Aborted on an interrupt: no further job starts; unharvested instances get `interrupted`. */
  signal?: AbortSignal;
  /**
   * One test run records every target its instances name (default); false: one run per
   * target, as before shared runs (the answers are the same: for side-by-side benchmarks).
   */
  shareRuns?: boolean;
}

/** Every oracle is harvested this many times, in fresh containers, and must agree. */
export const HARVEST_RUNS = 2;

export interface HarvestSummary {
  outcomes: Map<string, HarvestOutcome>;
  cached: number;
  harvested: number;
  failed: number;
  /** Where misses were harvested: backend names, or "cache" when nothing was missing. */
  backend: string;
  /** Each effective environment: its digest and how it was obtained. */
  environments: { name: string; digest: string; source: string; runtime: string }[];
}

interface EnvGroup {
  recipe: Environment;
  environmentDir: string;
  items: LoadedInstance[];
}

/**
 * Gold answers for the selected instances. Each environment is resolved once
 * (its source: wheels, commit, image; its runtime: base image or host
 * interpreter) into the digest that keys its oracles; hits come from the
 * store (and only if they say they belong to the instance), misses are
 * harvested HARVEST_RUNS times per environment and must agree. A failure of
 * one environment or instance is an outcome of those instances only; a lost
 * engine ends the harvest (finished oracles are stored already).
 */
export async function harvestOracles(
  selected: LoadedInstance[],
  tracerDigest: string,
  deps: HarvestDeps,
): Promise<HarvestSummary> {
  const outcomes = new Map<string, HarvestOutcome>();
  const environments: HarvestSummary['environments'] = [];
  const used = new Set<string>();
  let cached = 0;
  let backend: HarvestBackend | undefined;
  const getBackend = async () => {
    if (!backend) {
      backend = deps.backend();
      await backend.ensureAvailable();
    }
    return backend;
  };
  const groups = groupByEnvironment(selected);
  // Environments resolve once, on first use: the next one while this one's runs go (below).
  const resolutions = new Map<number, Promise<ResolvedEnvironment>>();
  const resolved = (i: number): Promise<ResolvedEnvironment> => {
    let resolution = resolutions.get(i);
    if (!resolution) {
      const group = groups[i]!;
      resolution = getBackend().then((b) =>
        resolveEnvironment(group.recipe, group.environmentDir, deps.sources, b),
      );
      resolution.catch(() => undefined); // reported where it is awaited
      resolutions.set(i, resolution);
    }
    return resolution;
  };
  /** The next environment with misses gets its image built while this one's tests run. */
  const prefetch = (i: number): void => {
    if (i >= groups.length || deps.signal?.aborted) return;
    void resolved(i)
      .then(async (env) => {
        if (missesOf(groups[i]!, env, tracerDigest, deps).length)
          await (await getBackend()).prepare?.(env);
      })
      .catch(() => undefined);
  };
  for (const [index, group] of groups.entries()) {
    if (deps.signal?.aborted) {
      for (const item of group.items)
        outcomes.set(item.instance.id, { status: 'error', reason: 'interrupted' });
      continue;
    }
    let env: ResolvedEnvironment;
    try {
      env = await resolved(index);
    } catch (error) {
      if (error instanceof DockerUnavailableError) throw error;
      const named = group.items[0]?.sweFlux?.image; // a SWE-Flux run's image, mapped or not
      const reason =
        `environment "${group.recipe.name}" could not be resolved: ${messageOf(error)}` +
        (named
          ? ` The SWE-Flux run names the image "${named}": map it to a local image with ` +
            `--swe-flux-images "${named}=IMAGE" (Action input swe-flux-images).`
          : '');
      deps.warn(reason);
      for (const item of group.items) outcomes.set(item.instance.id, { status: 'error', reason });
      continue;
    }
    environments.push({
      name: env.recipe.name,
      digest: env.digest,
      source: env.source.kind,
      runtime: env.runtime.note,
    });
    deps.log(`Environment "${env.recipe.name}": ${env.source.kind}, ${env.runtime.note}`);
    const misses = missesOf(group, env, tracerDigest, deps, (loaded, entry) => {
      outcomes.set(
        loaded.instance.id,
        reproduced(loaded, { status: 'ok', entry, fromCache: true }, deps.log),
      );
      cached++;
    });
    if (!misses.length) continue;
    const b = await getBackend();
    used.add(env.runtime.backend);
    prefetch(index + 1);
    // The runs go side by side (one container each: both cores), and must agree.
    const runs: Map<string, ReadResult>[] = deps.signal?.aborted
      ? []
      : await Promise.all(
          Array.from({ length: HARVEST_RUNS }, (_, i) =>
            runJob(
              b,
              env,
              misses.map((m) => m.loaded),
              i + 1,
              deps,
            ),
          ),
        );
    for (const { loaded, key } of misses) {
      const id = loaded.instance.id;
      if (runs.length < HARVEST_RUNS) {
        outcomes.set(id, { status: 'error', reason: 'interrupted' });
        continue;
      }
      const agreed = agreedResult(
        runs.map((r) => r.get(id)),
        (answers) => {
          const where = deps.quarantine?.put(id, answers);
          if (where) deps.log(`  ${id}: quarantined, every run's answer in ${where}`);
        },
        loaded.instance.kind,
      );
      const outcome = toOutcome(loaded, agreed, env, tracerDigest, deps.log);
      if (outcome.status === 'ok') deps.oracles.put(key, outcome.entry);
      else deps.log(`  ${id}: ${outcome.status} — ${outcome.reason}`);
      outcomes.set(id, reproduced(loaded, outcome, deps.log));
    }
  }
  const failed = [...outcomes.values()].filter((o) => o.status !== 'ok').length;
  return {
    outcomes,
    cached,
    harvested: outcomes.size - cached - failed,
    failed,
    backend: used.size ? [...used].sort().join('+') : 'cache',
    environments,
  };
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
 * A SWE-Flux instance is gated on only when the re-run reproduces its published
 * oracle.json; otherwise it is reported and kept out (the cached re-run stays, so
 * the check costs no second harvest).
 */
function reproduced(
  loaded: LoadedInstance,
  outcome: HarvestOutcome,
  log: (message: string) => void,
): HarvestOutcome {
  if (!loaded.sweFlux || outcome.status !== 'ok') return outcome;
  const [published, rerun] = [loaded.sweFlux.published, outcome.entry.oracle.oracle_answer];
  if (canonicalJson(published) === canonicalJson(rerun)) return outcome;
  const show = (v: unknown) => {
    const text = canonicalJson(v);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  };
  const reason =
    `the re-run does not reproduce the published oracle.json (published ${show(published)}, ` +
    `re-run ${show(rerun)}): kept out of gating`;
  log(`  ${loaded.instance.id}: invalid — ${reason}`);
  return { status: 'invalid', reason };
}

/**
 * The group's instances without a valid cached oracle. `hit` gets each one with; only the
 * harvest loop passes it, and only it warns about a foreign entry (the prefetch asks quietly).
 */
function missesOf(
  group: EnvGroup,
  env: ResolvedEnvironment,
  tracerDigest: string,
  deps: HarvestDeps,
  hit?: (loaded: LoadedInstance, entry: CachedOracle) => void,
): { loaded: LoadedInstance; key: string }[] {
  const misses: { loaded: LoadedInstance; key: string }[] = [];
  for (const loaded of group.items) {
    const key = oracleKey(loaded.contentHash, env.digest, tracerDigest);
    const entry = deps.oracles.get(key);
    if (entry && entryBelongs(entry, loaded, env.digest)) {
      hit?.(loaded, entry);
      continue;
    }
    if (entry && hit)
      deps.warn(`Cache entry ${key} does not belong to ${loaded.instance.id}; re-harvesting it.`);
    misses.push({ loaded, key });
  }
  return misses;
}

function groupByEnvironment(selected: LoadedInstance[]): EnvGroup[] {
  const groups = new Map<string, EnvGroup>();
  for (const loaded of selected) {
    const id = canonicalJson([loaded.environment, loaded.environmentDir]);
    const group = groups.get(id) ?? {
      recipe: loaded.environment,
      environmentDir: loaded.environmentDir,
      items: [],
    };
    group.items.push(loaded);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/** One tracer run over the instances; a failed job is an error of its instances only. */
async function runJob(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: LoadedInstance[],
  run: number,
  deps: HarvestDeps,
): Promise<Map<string, ReadResult>> {
  deps.log(
    `Harvesting ${items.length} instance(s) in environment "${env.recipe.name}" ` +
      `(${env.runtime.backend}, run ${run} of ${HARVEST_RUNS}: answers must agree)`,
  );
  let specs: PlanSpec[] = [];
  // Instances of one directory (a generated suite's test file and its questions) share its copy,
  // so the tracer sees one dir and shares one recorded run among the questions of a target.
  const dirs = [...new Set(items.map((i) => i.dir))];
  const dirIndex = new Map(dirs.map((dir, i) => [dir, i]));
  const job: HarvestJob = {
    environment: env,
    instanceDirs: dirs,
    timeoutMs: (items.reduce((sum, i) => sum + i.instance.timeout_seconds, 0) + 120) * 1000,
    label: `run ${run} of ${HARVEST_RUNS}`,
    plan: ({ instanceDir, checkout, workDir, isolation }) => {
      specs = items.map(({ instance, contentHash, dir, variant, sweFlux }) => ({
        id: instance.id,
        dir: instanceDir(dirIndex.get(dir)!),
        tests: instance.tests,
        kind: instance.kind,
        target: instance.target,
        query: instance.query,
        timeout_seconds: instance.timeout_seconds,
        parser: instance.parser ?? null,
        ...(instance.cwd === 'checkout' && checkout ? { cwd: checkout } : {}),
        expect_failure: instance.expect_failure,
        ...(instance.mutant
          ? {
              mutant: {
                file: instance.mutant.file,
                line: instance.mutant.line,
                original: instance.mutant.original,
                replacement: instance.mutant.replacement,
              },
            }
          : {}),
        instance_hash: contentHash,
        env_digest: env.digest,
        ...(variant
          ? {
              variant_epoch: variant.epoch,
              variant_key: variant.of,
              variant_attempt: variant.attempt,
            }
          : {}),
        ...(sweFlux ? { swe_flux: { qa: sweFlux.qa, instance: sweFlux.instance } } : {}),
      }));
      return {
        work_dir: workDir,
        isolation,
        instances: specs,
        ...(deps.shareRuns === false ? { share_runs: false } : {}),
      };
    },
  };
  try {
    const stdout = await backend.run(job);
    return readResultLines(stdout, specs);
  } catch (error) {
    if (error instanceof DockerUnavailableError) throw error;
    const reason = messageOf(error);
    deps.warn(`Harvest ${job.label} in environment "${env.recipe.name}" failed: ${reason}`);
    return new Map(items.map((i) => [i.instance.id, reason]));
  }
}
