import { compareRuns, type Comparison, type GatePolicy } from './compare/gate.js';
import type { InstanceRecord, Results } from './contracts/results.js';
import { EndpointRejectedError, EndpointUnavailableError, InterruptedError } from './errors.js';
import { harvestOracles, type HarvestDeps, type HarvestSummary } from './harvest/harvest.js';
import type { CachedOracle } from './contracts/oracle.js';
import { describePrompt, PROMPT_VERSION } from './prompt/build.js';
import { summarizeQuery } from './query/accounting.js';
import { ModelRequestError, type ModelClient } from './model/client.js';
import { queryInstances, withResponseCache, type QueryConfig } from './query/stage.js';
import { renderReport } from './report/markdown.js';
import { summarize } from './score/aggregate.js';
import type { Stores } from './stores/ports.js';
import type { LoadedInstance, RejectedFile } from './suite/load.js';

/** Everything one run needs, already validated and selected (by the CLI or the Action). */
export interface RunInput {
  /** The selection: instances to run, in order. */
  selected: LoadedInstance[];
  /** Suite files rejected while loading: reported with the results, never run. */
  rejected?: RejectedFile[];
  policy: GatePolicy;
  model: { endpoint: string; name: string; revision?: string };
  query: QueryConfig;
  /** Digest of the tracer's code (keys every oracle). */
  tracerDigest: string;
  commit?: string;
}

/** The side effects a run is built from; the entry points pass the real ones, tests their own. */
export interface RunDeps {
  log: (message: string) => void;
  warn: (message: string) => void;
  harvest: Pick<HarvestDeps, 'backend' | 'sources'>;
  client: ModelClient;
  stores: Stores;
  /** Aborted on SIGINT/SIGTERM: the run stops, writes what it has (incomplete), and throws. */
  signal?: AbortSignal;
}

export interface RunOutcome {
  results: Results;
  comparison: Comparison;
  report: string;
  harvest: HarvestSummary;
}

/** Harvest only: oracles into the store. */
export function harvestOnly(
  input: Pick<RunInput, 'selected' | 'tracerDigest'>,
  deps: Pick<RunDeps, 'log' | 'warn' | 'harvest' | 'signal'> & {
    stores: Pick<Stores, 'oracles' | 'quarantine'>;
  },
): Promise<HarvestSummary> {
  return harvestOracles(input.selected, input.tracerDigest, {
    ...deps.harvest,
    signal: deps.signal,
    oracles: deps.stores.oracles,
    quarantine: deps.stores.quarantine,
    log: deps.log,
    warn: deps.warn,
  });
}

/**
 * harvest → prompt → query → parse → score → aggregate → compare → report,
 * over a selection. Records go to the results sink as they finish; if the
 * endpoint dies, the results so far are still written before the error propagates.
 */
export async function runPipeline(input: RunInput, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const { stores } = deps;
  const baseline = await stores.baseline?.resolve();
  const { selected } = input;
  deps.log(`Selected ${selected.length} instance(s)`);
  const harvest = await harvestOnly(input, deps);
  deps.log(
    `Oracles: ${harvest.cached} from cache, ${harvest.harvested} harvested, ${harvest.failed} failed`,
  );

  const records = new Map<string, InstanceRecord>();
  const keep = (record: InstanceRecord): void => {
    records.set(record.id, record);
    stores.results.append(record);
  };
  const answerable: { loaded: LoadedInstance; entry: CachedOracle }[] = [];
  // Interrupted during the harvest: its failures are the interruption's, not the instances'.
  const harvestInterrupted = deps.signal?.aborted ?? false;
  for (const loaded of harvestInterrupted ? [] : selected) {
    const outcome = harvest.outcomes.get(loaded.instance.id)!;
    if (outcome.status === 'ok') answerable.push({ loaded, entry: outcome.entry });
    else
      keep({
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
      });
  }

  const finish = (incomplete?: string): RunOutcome => {
    const ordered = selected
      .map((l) => records.get(l.instance.id))
      .filter((r): r is InstanceRecord => !!r);
    const missing = selected.map((l) => l.instance.id).filter((id) => !records.has(id));
    const comparison = compareRuns(ordered, baseline?.results.instances, input.policy);
    const results: Results = {
      schema: 'tracegate/results@1',
      model: input.model,
      promptVersion: PROMPT_VERSION,
      prompt: describePrompt(input.query.prompt),
      query: summarizeQuery(ordered, deps.client.identity, input.query.samples),
      commit: input.commit,
      startedAt,
      finishedAt: new Date().toISOString(),
      harvest: {
        cached: harvest.cached,
        harvested: harvest.harvested,
        failed: harvest.failed,
        backend: harvest.backend,
        environments: harvest.environments,
      },
      summary: summarize(ordered),
      instances: ordered,
      ...(input.rejected?.length ? { rejected: input.rejected } : {}),
      ...(incomplete ? { incomplete: { reason: incomplete, missing } } : {}),
      comparison,
    };
    const report = renderReport(results, comparison);
    stores.results.finish(results, report);
    return { results, comparison, report, harvest };
  };

  try {
    const client = withResponseCache(deps.client, stores.responses, input.model.revision, deps.log);
    if (harvestInterrupted) throw interrupted(deps.signal!);
    await Promise.race([
      queryInstances(answerable, client, input.query, keep, deps.signal),
      aborted(deps.signal),
    ]);
    if (deps.signal?.aborted) throw interrupted(deps.signal);
  } catch (error) {
    if (error instanceof InterruptedError) {
      finish(error.message);
      throw error;
    }
    finish();
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

/** Settles (never rejects) when the signal aborts; never settles without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
