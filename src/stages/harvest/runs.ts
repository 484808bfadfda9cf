/** The runs a harvest of misses takes: HARVEST_RUNS tracer runs side by side, each in a fresh container. */
import type { ResolvedEnvironment } from '../../contracts/environment.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import { DockerUnavailableError, messageOf } from '../../errors.js';
import { partialOutputOf, type HarvestBackend } from '../../contracts/harvest-backend.js';
import { harvestJob } from './job-plan.js';
import { readResultLines, type ReadResult } from './results.js';
import type { HarvestDeps } from './types.js';

/** Every oracle is harvested this many times, in fresh containers, and must agree. */
export const HARVEST_RUNS = 2;

type RunDeps = Pick<HarvestDeps, 'log' | 'warn' | 'signal' | 'shareRuns'>;

/** Each run's results by instance id, and the engine's loss if one run lost it (what finished stands). */
export interface Runs {
  runs: Map<string, ReadResult>[];
  lost?: DockerUnavailableError;
  /**
   * Originals that ran once, beside their variant search (id → the search's id): the search's run
   * of their unchanged tests is their second run (settle.ts).
   */
  paired?: Map<string, string>;
}

/**
 * Each run's results by instance id; the runs go side by side (one container
 * each: both cores). None when the harvest was interrupted before they started.
 * A run that fails part way keeps the results its tracer wrote before (each
 * group's as it finished): an interrupt or a lost engine costs only what had
 * not finished.
 * A variant search is no oracle (it ranks candidates), and a candidate the
 * search answered has that answer as its second harvest (settle.ts): each
 * runs once, in one of the runs (onceRuns), so they share both cores instead
 * of doubling. So does an original harvested beside its search: the search
 * runs its unchanged tests in a process of its own, which is the original's
 * second run (the same run holds both, so the search takes its call sites
 * from the original's).
 */
export async function runAll(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: LoadedInstance[],
  deps: RunDeps,
): Promise<Runs> {
  if (deps.signal?.aborted) return { runs: [] };
  const paired = pairedOriginals(items);
  const runOf = onceRuns(items.filter(runsOnce), paired);
  const once = (i: LoadedInstance) => runsOnce(i) || paired.has(i);
  const inRun = (run: number) => items.filter((i) => !once(i) || runOf.get(i) === run);
  const done = await Promise.all(
    Array.from({ length: HARVEST_RUNS }, (_, i) => {
      const mine = inRun(i);
      return mine.length
        ? runJob(backend, env, mine, i + 1, deps)
        : Promise.resolve<JobResults>({ results: new Map() });
    }),
  );
  return {
    ...collected(done),
    ...(paired.size
      ? {
          paired: new Map(
            [...paired].map(([original, search]) => [original.instance.id, search.instance.id]),
          ),
        }
      : {}),
  };
}

/** The originals among `items` whose variant search is among them too (original → its search). */
function pairedOriginals(items: readonly LoadedInstance[]): Map<LoadedInstance, LoadedInstance> {
  const searchOf = new Map(
    items.filter((i) => i.variant?.search).map((s) => [s.variant!.of, s] as const),
  );
  const paired = new Map<LoadedInstance, LoadedInstance>();
  for (const item of items) {
    const search = item.variant ? undefined : searchOf.get(item.instance.id);
    if (search) paired.set(item, search);
  }
  return paired;
}

/**
 * The runs of measured instances (wall time, peak memory), one after the other, when nothing else
 * of the harvest runs: a clean run's timing never competes with another harvest's work. (Pinning
 * the two runs to a core each was tried: the driver's memory sampler then shares the test's core,
 * and wall times and profiles disagreed between the runs more often than side by side.)
 */
export async function runMeasured(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: LoadedInstance[],
  deps: RunDeps,
): Promise<Runs> {
  const done: JobResults[] = [];
  for (let i = 0; i < HARVEST_RUNS && !deps.signal?.aborted; i++) {
    const result = await runJob(backend, env, items, i + 1, deps);
    done.push(result);
    if (result.lost) break;
  }
  return collected(done);
}

function collected(done: JobResults[]): Runs {
  const lost = done.find((d) => d.lost)?.lost;
  return { runs: done.map((d) => d.results), ...(lost ? { lost } : {}) };
}

/** An item harvested in one run only: a variant search, or a candidate the search answered. */
export const runsOnce = (l: LoadedInstance): boolean =>
  Boolean(l.variant?.search || l.variant?.searched);

/**
 * The run each once-run item goes to: searches over the same tests share one
 * search run of the tracer (one pool, every target recorded at once), so they
 * go to the same run; a candidate is a set of its own. The sets are spread
 * over the runs largest first, each to the run with the fewest items so far;
 * an original paired with its search goes where the search goes.
 */
function onceRuns(
  items: readonly LoadedInstance[],
  paired: ReadonlyMap<LoadedInstance, LoadedInstance> = new Map(),
): Map<LoadedInstance, number> {
  const sets = new Map<string, LoadedInstance[]>();
  for (const s of items) {
    const key = s.variant?.search
      ? JSON.stringify([s.dir, s.instance.tests, s.instance.timeout_seconds])
      : s.instance.id;
    sets.set(key, [...(sets.get(key) ?? []), s]);
  }
  const load = Array<number>(HARVEST_RUNS).fill(0);
  const runOf = new Map<LoadedInstance, number>();
  const originals = new Map([...paired].map(([original, search]) => [search, original] as const));
  const weight = (set: LoadedInstance[]) => set.length + set.filter((s) => originals.has(s)).length;
  for (const set of [...sets.values()].sort((a, b) => weight(b) - weight(a))) {
    const run = load.indexOf(Math.min(...load));
    load[run] = (load[run] ?? 0) + weight(set);
    for (const s of set) runOf.set(s, run);
  }
  for (const [original, search] of paired) runOf.set(original, runOf.get(search)!);
  return runOf;
}

interface JobResults {
  results: Map<string, ReadResult>;
  lost?: DockerUnavailableError;
}

/**
 * One tracer run over the instances; a failed job is an error of the
 * instances it had not finished only (the others keep their results), and a
 * lost engine is returned beside them for the caller to end the harvest with.
 */
async function runJob(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: LoadedInstance[],
  run: number,
  deps: RunDeps,
): Promise<JobResults> {
  deps.log(
    `Harvesting ${items.length} instance(s) in environment "${env.recipe.name}" ` +
      `(${env.runtime.backend}, run ${run} of ${HARVEST_RUNS}: answers must agree)`,
  );
  const { job, specs } = harvestJob(env, items, `run ${run} of ${HARVEST_RUNS}`, deps.shareRuns);
  try {
    const stdout = await backend.run(job);
    return { results: readResultLines(stdout, specs()) };
  } catch (error) {
    const reason = messageOf(error);
    const written = readResultLines(partialOutputOf(error) ?? '', specs());
    const results = new Map<string, ReadResult>(
      items.map((i) => {
        const found = written.get(i.instance.id);
        return [i.instance.id, typeof found === 'object' ? found : reason];
      }),
    );
    const kept = [...results.values()].filter((r) => typeof r === 'object').length;
    const keptNote = kept ? ` (${kept} of ${items.length} instance(s) had finished: kept)` : '';
    if (error instanceof DockerUnavailableError) {
      deps.warn(
        `Harvest ${job.label} in environment "${env.recipe.name}" lost its engine${keptNote}`,
      );
      return { results, lost: error };
    }
    // An interrupt ends the run: said as what happened, not as the run's failure.
    if (deps.signal?.aborted)
      deps.log(
        `Harvest ${job.label} in environment "${env.recipe.name}" stopped by the interrupt${keptNote}`,
      );
    else
      deps.warn(
        `Harvest ${job.label} in environment "${env.recipe.name}" failed: ${reason}${keptNote}`,
      );
    return { results };
  }
}
