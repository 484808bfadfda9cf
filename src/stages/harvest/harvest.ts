import type { ResolvedEnvironment } from '../../contracts/environment.js';
import { DockerUnavailableError } from '../../errors.js';
import {
  groupByEnvironment,
  missesOf,
  RETRY_FAILED_AFTER,
  toHarvest,
  type EnvGroup,
  type Miss,
} from './env-groups.js';
import type { RememberedFailure } from '../../contracts/ports.js';
import { LazyEnvironments, unresolvedReason } from './environments.js';
import { runAll, runMeasured } from './runs.js';
import { familyOf } from '../../families/registry.js';
import { NOT_RUN, PAIR_UNSETTLED, reproduced, settle } from './settle.js';
import { HarvestTally } from './tally.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import type { HarvestDeps, HarvestSummary } from './types.js';
import { Progress } from '../../util/progress.js';

/**
 * Gold answers for the selected instances. Each environment is resolved once
 * (its source: wheels, commit, image; its runtime: base image or host
 * interpreter) into the digest that keys its oracles; hits come from the
 * store (and only if they say they belong to the instance), misses are
 * harvested HARVEST_RUNS times per environment and must agree. A failure of
 * one environment or instance is an outcome of those instances only; a lost
 * engine ends the harvest (finished oracles are stored already). Measured
 * instances (wall time, peak memory) go last, when nothing else of the harvest
 * runs (runMeasured), so their clean runs never compete with other work.
 */
export async function harvestOracles(
  selected: LoadedInstance[],
  tracerDigest: string,
  deps: HarvestDeps,
): Promise<HarvestSummary> {
  const tally = new HarvestTally();
  const groups = groupByEnvironment(selected);
  const environments = new LazyEnvironments(groups, deps);
  // `done`, not "with an oracle": some fail; the summary line after it says how many of each.
  const progress = new Progress('Harvest', selected.length, 'instances done', deps.log);
  const deferred: Deferred[] = [];
  const run = { environments, tracerDigest, deps, tally, deferred };
  // After an interrupt nothing ticks: the progress never claims what did not happen.
  const tick = (n: number) => (deps.signal?.aborted ? undefined : progress.tick(n));
  for (const [index, group] of groups.entries()) {
    const waiting = deferred.length;
    if (deps.signal?.aborted) tally.failAll(group.items, 'interrupted');
    else await harvestGroup(index, group, run);
    const later = deferred.slice(waiting).reduce((n, d) => n + d.misses.length, 0);
    tick(group.items.length - later); // the measured ones tick when they are done
  }
  for (const { env, misses } of deferred) {
    if (deps.signal?.aborted)
      tally.failAll(
        misses.map((m) => m.loaded),
        'interrupted',
      );
    else await harvestMisses(env, misses, run, runMeasured);
    tick(misses.length);
  }
  const summary = tally.summary();
  if (deps.signal?.aborted) {
    const ok = [...summary.outcomes.values()].filter((o) => o.status === 'ok').length;
    deps.log(
      `Oracles: interrupted — ${ok} of ${selected.length} instance(s) have one ` +
        `(${summary.cached} from the cache); the others were not harvested.`,
    );
  }
  return summary;
}

/** What each group's harvest shares. */
interface HarvestRun {
  environments: LazyEnvironments;
  tracerDigest: string;
  deps: HarvestDeps;
  tally: HarvestTally;
  /** Measured misses of each environment, harvested after every other (harvestOracles). */
  deferred: Deferred[];
}

interface Deferred {
  env: ResolvedEnvironment;
  misses: Miss[];
}

/**
 * The misses a measurement answers (their family's `timedKinds`: wall time, peak memory, a profile's
 * wall-clock exclusive times), with the other items of that family of the same test and no mutant: the tracer measures one test's
 * questions in one group of runs. A profile is measured alone too: harvested beside other work, its
 * time lists' leaders swapped between the two harvests (a boltons test's, at a load of 3.25).
 */
export function measuredMisses(misses: readonly Miss[]): Set<Miss> {
  const testOf = (m: Miss) => JSON.stringify([m.loaded.dir, m.loaded.instance.tests]);
  const timedKinds = (m: Miss) => familyOf(m.loaded.instance.kind).timedKinds;
  const measured = (m: Miss): boolean => !!timedKinds(m)?.includes(m.loaded.instance.kind);
  const timed = new Set(misses.filter(measured).map(testOf));
  return new Set(
    misses.filter((m) => !!timedKinds(m) && !m.loaded.instance.mutant && timed.has(testOf(m))),
  );
}

/** One environment's instances: resolved, answered from the cache, the misses harvested. */
async function harvestGroup(
  index: number,
  group: EnvGroup,
  { environments, tracerDigest, deps, tally, deferred }: HarvestRun,
): Promise<void> {
  // A failure remembered keeps its reason as harvested (the same outcome, not harvested again).
  const harvestable = (misses: Miss[]): Miss[] => {
    let reused = 0;
    const left = toHarvest(misses, deps, (miss, failure: RememberedFailure) => {
      deps.failures!.put(miss.key, { ...failure, reused: failure.reused + 1 });
      tally.remember(miss.loaded.instance.id, { status: failure.status, reason: failure.reason });
      reused++;
    });
    if (reused)
      deps.log(
        `Environment "${group.recipe.name}": ${reused} instance(s) failed in an earlier run with this ` +
          `tracer and environment; not harvested again (each for ${RETRY_FAILED_AFTER} runs; ` +
          '--retry-failed true harvests them now)',
      );
    return left;
  };
  // Every oracle cached (or its failure remembered) under the environment's last resolution: no engine is asked.
  const remembered = await environments.remembered(index).catch(() => undefined);
  if (remembered && !toHarvest(missesOf(group, remembered, tracerDigest, deps), deps).length) {
    tally.environment(remembered, group.items);
    deps.log(
      `Environment "${remembered.recipe.name}": every oracle of its ${group.items.length} instance(s) ` +
        `is cached (runtime as last resolved: ${remembered.runtime.note}); no engine needed`,
    );
    const misses = missesOf(group, remembered, tracerDigest, deps, (loaded, entry) =>
      tally.hit(
        loaded.instance.id,
        reproduced(loaded, { status: 'ok', entry, fromCache: true }, deps.log),
      ),
    );
    harvestable(misses);
    return;
  }
  let env: ResolvedEnvironment;
  try {
    env = await environments.resolved(index);
  } catch (error) {
    if (error instanceof DockerUnavailableError) throw error;
    const reason = unresolvedReason(group, error);
    deps.warn(reason);
    tally.failAll(group.items, reason);
    return;
  }
  tally.environment(env, group.items);
  deps.log(`Environment "${env.recipe.name}": ${env.source.kind}, ${env.runtime.note}`);
  const misses = harvestable(
    missesOf(group, env, tracerDigest, deps, (loaded, entry) =>
      tally.hit(
        loaded.instance.id,
        reproduced(loaded, { status: 'ok', entry, fromCache: true }, deps.log),
      ),
    ),
  );
  if (!misses.length) return;
  const measured = measuredMisses(misses);
  if (measured.size) deferred.push({ env, misses: [...measured] });
  const now = misses.filter((m) => !measured.has(m));
  if (!now.length) return;
  // The next environment with misses gets its image built while this one's tests run.
  environments.prefetch(
    index + 1,
    (next, nextEnv) => toHarvest(missesOf(next, nextEnv, tracerDigest, deps), deps).length > 0,
  );
  await harvestMisses(env, now, { environments, tracerDigest, deps, tally, deferred }, runAll);
}

/** The misses' runs, settled (stored when both runs agree) before anything else. */
async function harvestMisses(
  env: ResolvedEnvironment,
  misses: Miss[],
  { environments, tracerDigest, deps, tally }: HarvestRun,
  runs: typeof runAll,
): Promise<void> {
  const backend = await environments.backend();
  tally.usedBackend(env.runtime.backend);
  const done = await runs(
    backend,
    env,
    misses.map((m) => m.loaded),
    deps,
  );
  // An interrupt or a lost engine keeps every instance that had finished in both runs.
  const again: Miss[] = [];
  for (const miss of misses) {
    const id = miss.loaded.instance.id;
    const outcome = settle(miss, done.runs, env, tracerDigest, deps, done.paired?.get(id));
    const redone =
      outcome.status !== 'ok' &&
      [PAIR_UNSETTLED, NOT_RUN].some((why) => outcome.reason.startsWith(why));
    if (redone) again.push(miss);
    else tally.set(id, outcome);
  }
  if (done.lost) {
    for (const miss of again)
      tally.set(miss.loaded.instance.id, { status: 'error', reason: 'interrupted' });
    throw done.lost;
  }
  if (!again.length) return;
  // An original whose run beside its search did not settle, an item whose group an unclean container
  // did not run: two fresh runs (fresh containers), as any item.
  const redo = await runs(
    backend,
    env,
    again.map((m) => m.loaded),
    deps,
  );
  for (const miss of again)
    tally.set(miss.loaded.instance.id, settle(miss, redo.runs, env, tracerDigest, deps));
  if (redo.lost) throw redo.lost;
}

/** Resolving an environment, for a stage that needs one outside a harvest. */
export { resolveEnvironment } from './environments.js';
