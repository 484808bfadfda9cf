/** A miss's outcome once its runs are in (agreed, stored, quarantined), and the SWE-Flux reproduction check. */
import type { ResolvedEnvironment } from '../../contracts/environment.js';
import type { HarvestOutcome } from '../../contracts/oracle.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import { canonicalJson } from '../../util/hash.js';
import type { Miss } from './env-groups.js';
import { toOutcome } from './outcome.js';
import { agreedResult, type ReadResult, type TracerResult } from './results.js';
import { HARVEST_RUNS, runsOnce } from './runs.js';
import type { HarvestDeps } from './types.js';

/**
 * The miss's outcome from the runs' results: their agreed answer (every
 * answer quarantined when they disagree), stored when it is an oracle;
 * `interrupted` when the runs did not all happen.
 */
export function settle(
  { loaded, key }: Miss,
  runs: Map<string, ReadResult>[],
  env: ResolvedEnvironment,
  tracerDigest: string,
  deps: Pick<HarvestDeps, 'oracles' | 'quarantine' | 'failures' | 'log' | 'signal'>,
  pairedSearch?: string,
): HarvestOutcome {
  const id = loaded.instance.id;
  if (runs.length < HARVEST_RUNS) return { status: 'error', reason: 'interrupted' };
  // Interrupted: what both runs finished is stored; anything else is the interrupt's, not the
  // instance's — neither logged as its failure, remembered, nor quarantined.
  const stopped = deps.signal?.aborted === true;
  // A variant search, a candidate the search answered, or an original beside its search ran in
  // one of the runs only (runs.ts).
  const held = runsOnce(loaded) || pairedSearch ? runs.filter((r) => r.has(id)) : runs;
  const searched = pairedSearch ? unchangedRun(runs, pairedSearch) : loaded.variant?.searched;
  const differs = pairedSearch
    ? pairDiffers(
        held.map((r) => r.get(id)),
        searched,
      )
    : searchDiffers(
        searched,
        held.map((r) => r.get(id)),
      );
  if (differs) {
    if (stopped) return { status: 'error', reason: 'interrupted' };
    deps.log(`  ${id}: ${differs}`);
    return { status: 'invalid', reason: differs }; // neither stored nor remembered: harvested again
  }
  // A run that did not happen because an earlier group left its container unclean: not the
  // instance's failure (neither stored, quarantined nor remembered); run again in a fresh container.
  const notRun = held
    .map((r) => r.get(id))
    .find((r): r is TracerResult => typeof r === 'object' && !!r.stats?.not_run);
  if (notRun && stopped) return { status: 'error', reason: 'interrupted' };
  if (notRun) return { status: 'error', reason: `${NOT_RUN}: ${notRun.stats.not_run}` };
  // The tracer's own verdict in every run (not a job that failed around it: a lost engine, a timeout
  // of the whole container, an interrupt): a failure then is the instance's, and is remembered.
  const verdicts = held.length > 0 && held.every((r) => typeof r.get(id) === 'object');
  const agreed = agreedResult(
    withSearched(
      searched,
      held.map((r) => r.get(id)),
    ),
    (answers) => {
      if (stopped) return;
      const where = deps.quarantine?.put(id, answers);
      if (where) deps.log(`  ${id}: quarantined, every run's answer in ${where}`);
    },
    loaded.instance.kind,
  );
  const outcome = toOutcome(loaded, agreed, env, tracerDigest);
  if (outcome.status === 'ok') {
    deps.oracles.put(key, outcome.entry);
    deps.failures?.delete(key);
  } else if (stopped) {
    return { status: 'error', reason: 'interrupted' };
  } else {
    deps.log(`  ${id}: ${outcome.status} — ${outcome.reason}`);
    if (verdicts)
      deps.failures?.put(key, { status: outcome.status, reason: outcome.reason, reused: 0 });
  }
  return reproduced(loaded, outcome, deps.log);
}

/** The start of the reason of an instance whose group was not run (an earlier group's cleanup failed). */
export const NOT_RUN = 'not run in a clean container';

/** The start of the reason of a candidate whose fresh harvest and search answered differently. */
export const SEARCH_DIFFERS = 'the search answered otherwise';

/** The start of the reason of an original harvested beside its search that must be harvested again. */
export const PAIR_UNSETTLED = 'its run beside the search did not settle';

/**
 * The answer a paired original's search gave its unchanged tests (`unchanged` in the search's
 * answer), if the search answered.
 */
function unchangedRun(
  runs: Map<string, ReadResult>[],
  searchId: string,
): { answer: unknown } | undefined {
  for (const run of runs) {
    const found = run.get(searchId);
    if (typeof found !== 'object' || found.status !== 'ok') continue;
    const answer = found.answer as { unchanged?: unknown } | null;
    if (typeof answer === 'object' && answer !== null && answer.unchanged !== undefined)
      return { answer: answer.unchanged };
  }
  return undefined;
}

/**
 * Why an original harvested once beside its search must be harvested again, twice, as any item:
 * its run did not answer (a failure is judged on two fresh runs), the search gave no answer for
 * its unchanged tests, or gave another one (the search's interpreter also imported the
 * candidates' copies).
 */
function pairDiffers(
  results: (ReadResult | undefined)[],
  searched: { answer: unknown } | undefined,
): string | undefined {
  const [fresh] = results;
  if (results.length !== 1 || typeof fresh !== 'object') return undefined; // interrupted: as any item
  if (fresh.status !== 'ok')
    return `${PAIR_UNSETTLED} (${fresh.status}): harvested again, twice, fresh`;
  if (!searched)
    return `${PAIR_UNSETTLED} (the search gave no answer for its tests): harvested again, twice, fresh`;
  if (canonicalJson(fresh.answer) === canonicalJson(searched.answer)) return undefined;
  return `${PAIR_UNSETTLED} (the search's run of its tests answered otherwise): harvested again, twice, fresh`;
}

/**
 * Why a candidate harvested once must be harvested again (twice, fresh): its fresh answer is not
 * the one the search gave it. The search runs every candidate in one interpreter, so a cache
 * another copy warmed (a compiled grammar, a memoised name) can change what this one does.
 */
function searchDiffers(
  searched: { answer: unknown } | undefined,
  results: (ReadResult | undefined)[],
): string | undefined {
  const [fresh] = results;
  if (!searched || results.length !== 1 || typeof fresh !== 'object' || fresh.status !== 'ok')
    return undefined;
  if (canonicalJson(fresh.answer) === canonicalJson(searched.answer)) return undefined;
  return `${SEARCH_DIFFERS} (its interpreter is shared with the other candidates): harvested again, twice, fresh`;
}

/**
 * A candidate's (or a paired original's) fresh harvest and, when it answered as the search did,
 * the search's answer beside
 * as the second run it agrees with (runs_agreed 2). A fresh harvest that did not answer stands
 * alone: its own reason (the test fails, the target is not reached) is the drop's.
 */
function withSearched(
  searched: { answer: unknown } | undefined,
  results: (ReadResult | undefined)[],
) {
  const [fresh] = results;
  if (!searched || results.length !== 1 || typeof fresh !== 'object' || fresh.status !== 'ok')
    return results;
  const second: TracerResult = { ...fresh, answer: searched.answer };
  return [fresh, second];
}

/**
 * A SWE-Flux instance is gated on only when the re-run reproduces its published
 * oracle.json; otherwise it is reported and kept out (the cached re-run stays, so
 * the check costs no second harvest).
 */
export function reproduced(
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
