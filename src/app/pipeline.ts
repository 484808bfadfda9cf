import { compareRuns, type Comparison } from '../stages/compare/gate.js';
import { assertUniqueIds, pairable } from '../stages/compare/pairing.js';
import { assertComparable } from '../stages/compare/provenance.js';
import { chooseTopUp, plannedLooks, type Look } from '../stages/compare/sequential.js';
import type { CachedOracle } from '../contracts/oracle.js';
import type { InstanceRecord, Results } from '../contracts/results.js';
import { finishRecord } from '../stages/query/record.js';
import { Progress } from '../util/progress.js';
import {
  EndpointRejectedError,
  EndpointUnavailableError,
  InterruptedError,
  messageOf,
} from '../errors.js';
import { harvestOracles } from '../stages/harvest/harvest.js';
import { PROMPT_VERSION } from '../stages/prompt/build.js';
import { assembleResults, mergeHarvests, NO_HARVEST, reportContext } from './results.js';
import { queryInstances } from '../stages/query/stage.js';
import { decide, resolveBaseline } from './decide.js';
import { renderShardReport } from '../stages/report/shard.js';
import { findVariants } from './variants.js';
import { searchesOf, summarizeVariants, type VariantSummary } from '../stages/variants/variants.js';
import type { Baseline, Stores } from '../contracts/ports.js';
import type { RunDeps, RunInput, RunOutcome } from './run-input.js';
import type { LoadedInstance } from '../contracts/suite.js';
import { ModelRequestError } from '../contracts/model.js';
import { withResponseCache } from './response-cache.js';
import { createVerifier } from './verify.js';
import { familyOf } from '../families/registry.js';
import type { HarvestSummary } from '../stages/harvest/types.js';

/** Harvest only: oracles into the store. */
export function harvestOnly(
  selected: readonly LoadedInstance[],
  harvest: RunInput['harvest'],
  deps: Pick<RunDeps, 'log' | 'warn' | 'harvest' | 'signal'> & {
    stores: Pick<Stores, 'oracles' | 'quarantine' | 'failures'>;
  },
): Promise<HarvestSummary> {
  return harvestOracles([...selected], harvest.tracerDigest, {
    ...deps.harvest,
    signal: deps.signal,
    oracles: deps.stores.oracles,
    quarantine: deps.stores.quarantine,
    failures: deps.stores.failures,
    log: deps.log,
    warn: deps.warn,
  });
}

/** Fails fast, before any work, on a baseline this run could never be compared with. */
function checkBaseline(baseline: Baseline | undefined, scorer: string): void {
  if (!baseline) return;
  assertComparable(
    { scorer, prompt: PROMPT_VERSION },
    baseline.results.provenance,
    baseline.source,
  );
  assertUniqueIds({ instances: baseline.results.instances, label: baseline.source });
}

/**
 * harvest → prompt → query → parse → score → aggregate → compare → report,
 * over a selection; with top-up, an inconclusive first look adds paired items
 * through the same stages and decides again. Records go to the results sink
 * as they finish; if the endpoint dies, the results so far are still written
 * before the error propagates.
 */
export async function runPipeline(input: RunInput, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const { stores } = deps;
  const against = await resolveBaseline(stores.baseline, deps.warn);
  const { baseline } = against;
  checkBaseline(baseline, input.gate.scorer);
  const { selected, topUp } = input.selection;
  const variantsAsked = input.selection.variants;
  const answered = new Set(baseline?.results.instances.filter(pairable).map((r) => r.id));
  const extra = baseline && topUp ? chooseTopUp(topUp.pool, answered, topUp.seed, topUp.max) : [];
  const looks = plannedLooks(input.gate.policy.alpha, selected.length, extra.length);
  let look: Look = looks[0];
  let toppedUp = false;
  const shard = input.selection.shard;
  const searches = variantsAsked
    ? searchesOf(selected, variantsAsked.mode, variantsAsked.epoch, shard?.whole)
    : [];
  // What this run asks: the selection (not with variants only) and, once screened, its valid variants.
  const attempted: LoadedInstance[] = variantsAsked?.mode.mode === 'only' ? [] : [...selected];
  let variantSummary: VariantSummary | undefined;
  deps.log(
    `Selected ${selected.length} instance(s)` +
      (searches.length
        ? `, and a search for a fresh variant of ${searches.length} at epoch ${variantsAsked!.epoch}`
        : ''),
  );

  const records = new Map<string, InstanceRecord>();
  const loadedById = new Map(
    [...selected, ...searches, ...extra].map((l) => [l.instance.id, l] as [string, LoadedInstance]),
  );
  const keep = (record: InstanceRecord): void => {
    records.set(record.id, record);
    stores.results.append(record);
  };
  const client = withResponseCache(
    deps.client,
    stores.responses,
    input.query.model.revision,
    deps.log,
  );
  let harvest: HarvestSummary | undefined;
  // B1/B2 replies run in the sandbox (app/verify.ts); made only when the selection has some.
  const verifier = [...selected, ...extra].some((l) => familyOf(l.instance.kind).runsReplies)
    ? createVerifier({
        harvest: { ...deps.harvest, signal: deps.signal },
        tracerDigest: input.harvest.tracerDigest,
        store: stores.verifications,
        log: deps.log,
      })
    : undefined;

  /** Harvests a batch; the entry point's errors (no engine) propagate before anything is written. */
  const harvestBatch = async (batch: LoadedInstance[]): Promise<HarvestSummary> => {
    deps.phase?.(toppedUp ? 'Harvest (top-up)' : 'Harvest');
    const summary = await harvestOnly(batch, input.harvest, deps);
    harvest = harvest ? mergeHarvests(harvest, summary) : summary;
    deps.log(
      `Oracles: ${summary.cached} from cache, ${summary.harvested} harvested, ${summary.failed} failed` +
        (summary.remembered ? ` (${summary.remembered} remembered from an earlier run)` : ''),
    );
    return summary;
  };

  /** Answers a harvested batch; throws InterruptedError when the signal fired. */
  const answerBatch = async (batch: LoadedInstance[], summary: HarvestSummary): Promise<void> => {
    // Interrupted during the harvest: its failures are the interruption's, not the instances'.
    if (deps.signal?.aborted) throw interrupted(deps.signal);
    deps.phase?.(toppedUp ? 'Queries (top-up)' : 'Queries');
    const answerable: { loaded: LoadedInstance; entry: CachedOracle }[] = [];
    for (const loaded of batch) {
      const outcome = summary.outcomes.get(loaded.instance.id)!;
      if (outcome.status === 'ok') answerable.push({ loaded, entry: outcome.entry });
      else
        keep(
          finishRecord(loaded, {
            id: loaded.instance.id,
            kind: loaded.instance.kind,
            scored: false,
            correct: false,
            error: `harvest_${outcome.status}`,
            detail: outcome.reason,
            tokensIn: 0,
            tokensOut: 0,
            latencyMs: 0,
            retries: 0,
          }),
        );
    }
    const progress = new Progress('Answers', answerable.length, 'instances', deps.log);
    const answered = (record: InstanceRecord): void => {
      keep(record);
      progress.tick();
    };
    const querying = queryInstances(
      answerable,
      client,
      input.query.config,
      answered,
      deps.signal,
      verifier,
    );
    await Promise.race([querying, aborted(deps.signal)]);
    // Stopped: no request starts any more; the ones in flight are paid for, so they get a short
    // while to land (and be cached and recorded) before the run returns, and none is left running
    // behind it. What is still out after that is asked again by the next run.
    if (deps.signal?.aborted) await settledWithin(querying, IN_FLIGHT_GRACE_MS);
    await verifier?.settled();
    if (deps.signal?.aborted) throw interrupted(deps.signal);
  };

  const assemble = (incomplete?: string): Results =>
    assembleResults({
      input,
      attempted,
      records,
      harvest,
      identity: deps.client.identity,
      startedAt,
      incomplete,
      variants: variantSummary,
    });
  const topUpOf = (): Comparison['topUp'] =>
    toppedUp
      ? {
          planned: extra.length,
          added: extra.filter((l) => records.has(l.instance.id)).length,
          ids: extra.map((l) => l.instance.id),
        }
      : undefined;
  // A shard is compared by the merge of every part, never alone (its part is no selection of its own).
  const compare = (results: Results): Comparison =>
    shard
      ? compareRuns(results, undefined, input.gate.policy)
      : compareRuns(results, baseline, input.gate.policy, look, topUpOf(), against.unavailable);

  const finish = (incomplete?: string): RunOutcome => {
    deps.phase?.('Compare and report');
    const results = assemble(incomplete);
    const { comparison, report } = shard
      ? { comparison: compare(results), report: renderShardReport(results) }
      : decide(
          results,
          against,
          input.gate,
          look,
          (r) => reportContext(input.report, r),
          topUpOf(),
        );
    stores.results.finish(results, report);
    return {
      results,
      comparison,
      report,
      harvest: harvest ?? NO_HARVEST,
    };
  };

  // Before any harvest: a dead endpoint, a wrong URL, model or key fails now, in seconds.
  if (input.query.preflight !== false && deps.client.preflight) {
    deps.phase?.('Endpoint check');
    await deps.client.preflight(deps.log);
  }
  const first = await harvestBatch([...selected, ...searches]);
  let asked = selected;
  if (variantsAsked) {
    // The search ranks each instance's edits; its first candidates are harvested alone (the next
    // ones when those fail), and a variant is asked only if it passes the screen with an oracle of its own.
    const screened = await findVariants(
      searches,
      first.outcomes,
      async (batch) => (await harvestBatch(batch)).outcomes,
      deps.screen,
    );
    variantSummary = summarizeVariants(
      variantsAsked.mode,
      variantsAsked.epoch,
      selected,
      searches,
      screened,
    );
    for (const v of screened.valid) {
      // The kept candidate answers under the variant's id.
      loadedById.set(v.instance.id, v);
      first.outcomes.set(
        v.instance.id,
        first.outcomes.get(`${v.instance.id}#${v.variant!.candidate}`)!,
      );
    }
    deps.log(
      `Variants at epoch ${variantsAsked.epoch}: ${screened.valid.length} of ${variantSummary.tried} valid` +
        (screened.dropped.length
          ? ` (dropped: ${Object.entries(variantSummary.dropped)
              .map(([rule, n]) => `${rule} ×${n}`)
              .join(', ')})`
          : ''),
    );
    asked = variantsAsked.mode.mode === 'only' ? screened.valid : [...selected, ...screened.valid];
  }
  attempted.push(...asked.filter((l) => l.variant));
  try {
    await answerBatch(asked, first);
    const second = looks[1];
    if (second && compare(assemble()).verdict === 'inconclusive') {
      deps.log(
        `Inconclusive at the first look (α ${look.alpha.toFixed(4)}): topping up with ${extra.length} ` +
          `instance(s) the baseline answered; deciding again at α ${second.alpha.toFixed(4)}`,
      );
      look = second;
      toppedUp = true;
      attempted.push(...extra);
      await answerBatch(extra, await harvestBatch(extra));
    }
  } catch (error) {
    if (error instanceof InterruptedError) {
      finish(error.message);
      throw error;
    }
    finish(
      error instanceof EndpointUnavailableError
        ? `the model endpoint became unavailable (${error.detail})`
        : messageOf(error),
    );
    if (error instanceof EndpointUnavailableError)
      throw new EndpointUnavailableError(error.endpoint, error.detail, stores.results.location);
    if (error instanceof ModelRequestError)
      throw new EndpointRejectedError(deps.client.endpoint, error.message, stores.results.location);
    throw error;
  }
  const outcome = finish();

  function interrupted(signal: AbortSignal): InterruptedError {
    return new InterruptedError(String(signal.reason ?? 'a signal'), stores.results.location);
  }
  deps.log(`Wrote ${stores.results.location} and its report`);
  return outcome;
}

/** How long a stopped run waits for the requests already in flight. */
const IN_FLIGHT_GRACE_MS = 10_000;

/** Settles when `work` settles (either way) or after `ms`, whichever is first. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

/** Settles (never rejects) when the signal aborts; never settles without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
