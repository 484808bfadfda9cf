// Finding the variants of searched instances: one home for a run (`--variants`) and for the
// generator's variant screen, so an instance the bundle keeps as "has a variant" is judged by
// exactly what a run does.
import type { HarvestOutcome } from '../contracts/oracle.js';
import type { ModelClient } from '../contracts/model.js';
import type { LoadedInstance } from '../contracts/suite.js';
import { SEARCH_DIFFERS } from '../stages/harvest/settle.js';
import {
  candidatesOf,
  foundCount,
  screenVariants,
  VARIANT_ROUNDS,
  VARIANT_TRIES,
  type Dropped,
} from '../stages/variants/variants.js';

/** Harvests a batch and gives its outcomes by instance id. */
export type HarvestBatch = (
  batch: LoadedInstance[],
) => Promise<ReadonlyMap<string, HarvestOutcome>>;

/** A search's drop that a later candidate may still avoid (not "the search found nothing"). */
const candidateRule = (d: Dropped): boolean => d.rule !== 'no-candidate';

/**
 * After the searches are harvested (their outcomes in `outcomes`): harvests
 * the first VARIANT_TRIES candidates of each search alone and screens them;
 * a search whose candidates all failed the screen and that found more gets
 * its next VARIANT_TRIES, up to VARIANT_ROUNDS rounds. Candidates' outcomes
 * are added to `outcomes`. Deterministic: the same searches and outcomes give
 * the same variants.
 */
export async function findVariants(
  searches: readonly LoadedInstance[],
  outcomes: Map<string, HarvestOutcome>,
  harvest: HarvestBatch,
  demo: ModelClient,
): Promise<{ valid: LoadedInstance[]; dropped: Dropped[]; candidates: LoadedInstance[] }> {
  let harvested: LoadedInstance[] = [];
  let pending = [...searches];
  let screened: Awaited<ReturnType<typeof screenVariants>> = { valid: [], dropped: [] };
  for (let round = 1; round <= VARIANT_ROUNDS && pending.length; round++) {
    const fresh = candidatesOf(pending, outcomes, round * VARIANT_TRIES).filter(
      (c) => !outcomes.has(c.instance.id),
    );
    if (!fresh.length) break;
    for (const [id, outcome] of await harvest(fresh)) outcomes.set(id, outcome);
    // A candidate whose fresh answer is not the search's is harvested again, twice, like any item.
    const again = fresh
      .filter((c) => {
        const outcome = outcomes.get(c.instance.id);
        return outcome?.status !== 'ok' && outcome?.reason.startsWith(SEARCH_DIFFERS);
      })
      .map((c) => ({ ...c, variant: { ...c.variant!, searched: undefined } }));
    if (again.length) for (const [id, outcome] of await harvest(again)) outcomes.set(id, outcome);
    // Every candidate harvested so far, in each search's order (candidatesOf lists them in pool order).
    harvested = candidatesOf(searches, outcomes, VARIANT_ROUNDS * VARIANT_TRIES).filter((c) =>
      outcomes.has(c.instance.id),
    );
    screened = await screenVariants(searches, harvested, outcomes, demo);
    const retry = new Set(screened.dropped.filter(candidateRule).map((d) => d.id));
    pending = searches.filter(
      (s) =>
        retry.has(s.instance.id.replace(/~search$/, '')) &&
        foundCount(s, outcomes) > round * VARIANT_TRIES,
    );
  }
  if (!harvested.length) screened = await screenVariants(searches, [], outcomes, demo);
  return { ...screened, candidates: harvested };
}
