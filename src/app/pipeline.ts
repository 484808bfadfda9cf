import { compareRuns, type Comparison } from '../stages/compare/gate.js';
import { assertUniqueIds, pairable } from '../stages/compare/pairing.js';
import { assertComparable } from '../stages/compare/provenance.js';
import { chooseTopUp, plannedLooks, type Look } from '../stages/compare/sequential.js';
import type { CachedOracle } from '../contracts/oracle.js';
import type { InstanceRecord, Results } from '../contracts/results.js';
import { unaskedRecord } from '../stages/query/record.js';
import { Progress } from '../util/progress.js';
import {
  EndpointRejectedError,
  EndpointUnavailableError,
  InterruptedError,
  messageOf,
} from '../errors.js';
import { harvestOracles } from '../stages/harvest/harvest.js';
import { promptId } from '../stages/prompt/build.js';
import { assembleResults, mergeHarvests, NO_HARVEST, reportContext } from './results.js';
import { queryInstances } from '../stages/query/stage.js';
import { decide, resolveBaseline, type ResolvedBaseline } from './decide.js';
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
import { withTrees } from './source-views.js';
import { REPO_TOOLS } from '../stages/tools/tools.js';

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
function checkBaseline(baseline: Baseline | undefined, scorer: string, prompt: string): void {
  if (!baseline) return;
  assertComparable({ scorer, prompt }, baseline.results.provenance, baseline.source);
  assertUniqueIds({ instances: baseline.results.instances, label: baseline.source });
}

/**
 * harvest → prompt → query → parse → score → aggregate → decide, over a selection; with top-up,
 * an inconclusive first look adds paired items through the same stages and decides again.
 * Records go to the results sink as they finish; if the endpoint dies, the results so far are
 * still written before the error propagates.
 */
export async function runPipeline(input: RunInput, deps: RunDeps): Promise<RunOutcome> {
  const against = await resolveBaseline(deps.stores.baseline, deps.warn);
  checkBaseline(against.baseline, input.gate.scorer, promptId(input.query.config.prompt.mode));
  const run = new Run(input, deps, against);
  // Before any harvest: a dead endpoint, a wrong URL, model or key fails now, in seconds.
  if (input.query.preflight !== false && deps.client.preflight) {
    deps.phase?.('Endpoint check');
    const repo = input.query.config.prompt.mode === 'repo';
    await deps.client.preflight(deps.log, {
      ...(repo ? { tools: REPO_TOOLS } : {}),
      ...(input.query.endpointWait ? { waitMs: input.query.endpointWait * 1000 } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  }
  const first = await run.harvest([...input.selection.selected, ...run.searches]);
  const asked = input.selection.variants
    ? await run.screenVariants(first)
    : input.selection.selected;
  run.attempted.push(...asked.filter((l) => l.variant));
  try {
    await run.answer(asked, first);
    if (run.looks[1] && run.compare(run.assemble()).verdict === 'inconclusive') await run.topUp();
  } catch (error) {
    throw run.failed(error);
  }
  const outcome = run.finish();
  deps.log(`Wrote ${deps.stores.results.location} and its report`);
  return outcome;
}

/**
 * One run's state — its records, harvest, look and variants — and its steps, each a method:
 * harvest a batch, screen the variants, answer a batch, top up, assemble, compare, finish.
 */
class Run {
  readonly startedAt = new Date().toISOString();
  /** Paired items the baseline answered outside the sample, for a top-up. */
  readonly extra: LoadedInstance[];
  readonly looks: ReturnType<typeof plannedLooks>;
  readonly searches: LoadedInstance[];
  /** What this run asks: the selection (not with variants only) and, once screened, its valid variants. */
  readonly attempted: LoadedInstance[];
  private readonly records = new Map<string, InstanceRecord>();
  private readonly client: RunDeps['client'];
  /** B1/B2 replies run in the sandbox (app/verify.ts); made only when the selection has some. */
  private readonly verifier?: ReturnType<typeof createVerifier>;
  private look: Look;
  private toppedUp = false;
  private harvested?: HarvestSummary;
  private variantSummary?: VariantSummary;

  constructor(
    private readonly input: RunInput,
    private readonly deps: RunDeps,
    private readonly against: ResolvedBaseline,
  ) {
    const { selected, topUp, variants, shard } = input.selection;
    const { baseline } = against;
    const answered = new Set(baseline?.results.instances.filter(pairable).map((r) => r.id));
    this.extra = baseline && topUp ? chooseTopUp(topUp.pool, answered, topUp.seed, topUp.max) : [];
    this.looks = plannedLooks(input.gate.policy.alpha, selected.length, this.extra.length);
    this.look = this.looks[0];
    this.searches = variants
      ? searchesOf(selected, variants.mode, variants.epoch, shard?.whole)
      : [];
    this.attempted = variants?.mode.mode === 'only' ? [] : [...selected];
    deps.log(
      `Selected ${selected.length} instance(s)` +
        (this.searches.length
          ? `, and a search for a fresh variant of ${this.searches.length} at epoch ${variants!.epoch}`
          : ''),
    );
    this.client = withResponseCache(
      deps.client,
      deps.stores.responses,
      input.query.model.revision,
      deps.log,
      input.query.config.prompt.mode,
    );
    this.verifier = [...selected, ...this.extra].some((l) => familyOf(l.instance.kind).runsReplies)
      ? createVerifier({
          harvest: { ...deps.harvest, signal: deps.signal },
          tracerDigest: input.harvest.tracerDigest,
          store: deps.stores.verifications,
          log: deps.log,
        })
      : undefined;
  }

  /** Harvests a batch; the entry point's errors (no engine) propagate before anything is written. */
  async harvest(batch: LoadedInstance[]): Promise<HarvestSummary> {
    this.deps.phase?.(this.toppedUp ? 'Harvest (top-up)' : 'Harvest');
    const summary = await harvestOnly(batch, this.input.harvest, this.deps);
    this.harvested = this.harvested ? mergeHarvests(this.harvested, summary) : summary;
    this.deps.log(
      `Oracles: ${summary.cached} from cache, ${summary.harvested} harvested, ${summary.failed} failed` +
        (summary.remembered ? ` (${summary.remembered} remembered from an earlier run)` : ''),
    );
    return summary;
  }

  /**
   * The search ranks each instance's edits; its first candidates are harvested alone (the next
   * ones when those fail), and a variant is asked only if it passes the screen with an oracle of
   * its own. Returns what the run asks: the selection and the valid variants (or those alone).
   */
  async screenVariants(first: HarvestSummary): Promise<LoadedInstance[]> {
    const { selected } = this.input.selection;
    const asked = this.input.selection.variants!;
    const screened = await findVariants(
      this.searches,
      first.outcomes,
      async (batch) => (await this.harvest(batch)).outcomes,
      this.deps.screen,
    );
    this.variantSummary = summarizeVariants(
      asked.mode,
      asked.epoch,
      selected,
      this.searches,
      screened,
    );
    // The kept candidate answers under the variant's id.
    for (const v of screened.valid)
      first.outcomes.set(
        v.instance.id,
        first.outcomes.get(`${v.instance.id}#${v.variant!.candidate}`)!,
      );
    this.deps.log(
      `Variants at epoch ${asked.epoch}: ${screened.valid.length} of ${this.variantSummary.tried} valid` +
        (screened.dropped.length
          ? ` (dropped: ${Object.entries(this.variantSummary.dropped)
              .map(([rule, n]) => `${rule} ×${n}`)
              .join(', ')})`
          : ''),
    );
    return asked.mode.mode === 'only' ? screened.valid : [...selected, ...screened.valid];
  }

  /** Answers a harvested batch; throws InterruptedError when the signal fired. */
  async answer(batch: LoadedInstance[], summary: HarvestSummary): Promise<void> {
    const { deps } = this;
    // Interrupted during the harvest: its failures are the interruption's, not the instances'.
    if (deps.signal?.aborted) throw this.interrupted(deps.signal);
    deps.phase?.(this.toppedUp ? 'Queries (top-up)' : 'Queries');
    const answerable: { loaded: LoadedInstance; entry: CachedOracle }[] = [];
    for (const loaded of batch) {
      const outcome = summary.outcomes.get(loaded.instance.id)!;
      if (outcome.status === 'ok') answerable.push({ loaded, entry: outcome.entry });
      else
        this.keep(
          unaskedRecord(loaded, `harvest_${outcome.status}`, outcome.reason, { scored: false }),
        );
    }
    const asked =
      this.input.query.config.prompt.mode === 'repo'
        ? await withTrees(
            answerable,
            this.harvested?.resolved,
            { backend: deps.harvest.backend, store: deps.stores.views, log: deps.log },
            (record) => this.keep(record),
          )
        : answerable;
    const progress = new Progress('Answers', asked.length, 'instances asked', deps.log);
    const querying = queryInstances(
      asked,
      this.client,
      this.input.query.config,
      (record) => {
        this.keep(record);
        progress.tick();
      },
      deps.signal,
      this.verifier,
    );
    await Promise.race([querying, aborted(deps.signal)]);
    // Stopped: no request starts any more; the ones in flight are paid for, so they get a short
    // while to land (and be cached and recorded) before the run returns, and none is left running
    // behind it. What is still out after that is asked again by the next run.
    if (deps.signal?.aborted) await settledWithin(querying, IN_FLIGHT_GRACE_MS);
    await this.verifier?.settled();
    if (deps.signal?.aborted) throw this.interrupted(deps.signal);
  }

  /** Inconclusive at the first look: the paired items the baseline answered, then the second look. */
  async topUp(): Promise<void> {
    const second = this.looks[1]!;
    this.deps.log(
      `Inconclusive at the first look (α ${this.look.alpha.toFixed(4)}): topping up with ${this.extra.length} ` +
        `instance(s) the baseline answered; deciding again at α ${second.alpha.toFixed(4)}`,
    );
    this.look = second;
    this.toppedUp = true;
    this.attempted.push(...this.extra);
    await this.answer(this.extra, await this.harvest(this.extra));
  }

  assemble(incomplete?: string): Results {
    return assembleResults({
      input: this.input,
      attempted: this.attempted,
      records: this.records,
      harvest: this.harvested,
      identity: this.deps.client.identity,
      startedAt: this.startedAt,
      incomplete,
      variants: this.variantSummary,
    });
  }

  /** A shard is compared by the merge of every part, never alone (its part is no selection of its own). */
  compare(results: Results): Comparison {
    return this.input.selection.shard
      ? compareRuns(results, undefined, this.input.gate.policy)
      : compareRuns(
          results,
          this.against.baseline,
          this.input.gate.policy,
          this.look,
          this.topUpOf(),
          this.against.unavailable,
        );
  }

  /** The results (incomplete, saying why, after a failure), decided and written with their report. */
  finish(incomplete?: string): RunOutcome {
    this.deps.phase?.('Compare and report');
    const results = this.assemble(incomplete);
    const { comparison, report } = this.input.selection.shard
      ? { comparison: this.compare(results), report: renderShardReport(results) }
      : decide(
          results,
          this.against,
          this.input.gate,
          this.look,
          (r) => reportContext(this.input.report, r),
          this.topUpOf(),
        );
    this.deps.stores.results.finish(results, report);
    return { results, comparison, report, harvest: this.harvested ?? NO_HARVEST };
  }

  /** A run that failed part way: what it has is written (incomplete, saying why); the error to throw. */
  failed(error: unknown): unknown {
    const { stores, client } = this.deps;
    if (error instanceof InterruptedError) {
      this.finish(error.message);
      return error;
    }
    this.finish(
      error instanceof EndpointUnavailableError
        ? `the model endpoint became unavailable (${error.detail})`
        : messageOf(error),
    );
    if (error instanceof EndpointUnavailableError)
      return new EndpointUnavailableError(error.endpoint, error.detail, stores.results.location);
    if (error instanceof ModelRequestError)
      return new EndpointRejectedError(client.endpoint, error.message, stores.results.location);
    return error;
  }

  private keep(record: InstanceRecord): void {
    this.records.set(record.id, record);
    this.deps.stores.results.append(record);
  }

  private topUpOf(): Comparison['topUp'] {
    return this.toppedUp
      ? {
          planned: this.extra.length,
          added: this.extra.filter((l) => this.records.has(l.instance.id)).length,
          ids: this.extra.map((l) => l.instance.id),
        }
      : undefined;
  }

  private interrupted(signal: AbortSignal): InterruptedError {
    return new InterruptedError(
      String(signal.reason ?? 'a signal'),
      this.deps.stores.results.location,
    );
  }
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
