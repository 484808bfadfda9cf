import { join } from 'node:path';
import { compareRuns, type Comparison, type GatePolicy } from './compare/gate.js';
import { EndpointRejectedError } from './errors.js';
import type { HarvestBackend } from './harvest/backend.js';
import { DirOracleCache } from './harvest/cache.js';
import { harvestOracles, type HarvestOptions, type HarvestSummary } from './harvest/harvest.js';
import type { CachedOracle } from './harvest/oracle.js';
import { tracerDigest } from './harvest/tracer-digest.js';
import { loadInstances, type LoadedInstance } from './instances/load.js';
import { tracerDir } from './paths.js';
import { DEFAULT_PROMPT_OPTIONS, describePrompt, PROMPT_VERSION } from './prompt/build.js';
import { summarizeQuery } from './query/accounting.js';
import { ModelRequestError, type ModelClient } from './query/client.js';
import type { ResponseCache } from './query/response-cache.js';
import { queryInstances, withResponseCache, type QueryConfig } from './query/stage.js';
import { renderReport } from './report/markdown.js';
import type { InstanceRecord, Results } from './results/schema.js';
import { OutputDir, readResults } from './results/store.js';
import { summarize } from './score/aggregate.js';
import { selectInstances, type Selection } from './select/select.js';

/** Everything one run needs, already validated (by the CLI or the Action inputs). */
export interface RunConfig {
  instancesDir: string;
  selection: Selection;
  cacheDir: string;
  outDir: string;
  baselineFile?: string;
  policy: GatePolicy;
  model: { endpoint: string; name: string; revision?: string };
  concurrency: number;
  /** Prompt mode/budget and samples per instance (defaults: slice, 16000 tokens, 1). */
  query?: Omit<QueryConfig, 'concurrency'>;
  baseImage: string;
  commit?: string;
}

/** The side effects a run is built from; tests pass their own. */
export interface RunDeps {
  log: (message: string) => void;
  warn: (message: string) => void;
  backend: () => HarvestBackend;
  client: ModelClient;
  /** Where replies are kept between runs (used only when the model revision is known). */
  responseCache?: ResponseCache;
}

export interface RunOutcome {
  results: Results;
  comparison: Comparison;
  report: string;
  harvest: HarvestSummary;
}

/** Load and select, failing fast on bad instances or an empty selection. */
export function loadSelection(instancesDir: string, selection: Selection): LoadedInstance[] {
  return selectInstances(loadInstances(instancesDir), selection);
}

/** Harvest settings shared by `run` and `harvest`: nondeterministic oracles go to quarantine/. */
function harvestOptions(
  config: Pick<RunConfig, 'cacheDir' | 'baseImage'>,
  deps: Pick<RunDeps, 'log' | 'warn' | 'backend'>,
): HarvestOptions {
  return {
    cache: new DirOracleCache(config.cacheDir, deps.warn),
    backend: deps.backend,
    baseImage: config.baseImage,
    tracerDigest: tracerDigest(tracerDir()),
    log: deps.log,
    quarantineDir: join(config.cacheDir, 'quarantine'),
  };
}

/** Harvest only: oracles into the cache. */
export async function harvestOnly(
  config: Pick<RunConfig, 'instancesDir' | 'selection' | 'cacheDir' | 'baseImage'>,
  deps: Pick<RunDeps, 'log' | 'warn' | 'backend'>,
): Promise<HarvestSummary> {
  const selected = loadSelection(config.instancesDir, config.selection);
  return harvestOracles(selected, harvestOptions(config, deps));
}

/**
 * select → harvest → prompt → query → parse → score → aggregate → compare →
 * report. Records are appended as they finish; if the endpoint dies, the
 * results so far are still written before the error propagates.
 */
export async function runPipeline(config: RunConfig, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const baseline = config.baselineFile ? readResults(config.baselineFile) : undefined;
  const selected = loadSelection(config.instancesDir, config.selection);
  deps.log(`Selected ${selected.length} instance(s) from ${config.instancesDir}`);
  const harvest = await harvestOracles(selected, harvestOptions(config, deps));
  deps.log(
    `Oracles: ${harvest.cached} from cache, ${harvest.harvested} harvested, ${harvest.failed} failed`,
  );

  const out = new OutputDir(config.outDir);
  const records = new Map<string, InstanceRecord>();
  const keep = (record: InstanceRecord): void => {
    records.set(record.id, record);
    out.append(record);
  };
  const answerable: { loaded: LoadedInstance; entry: CachedOracle }[] = [];
  for (const loaded of selected) {
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

  const query = {
    prompt: config.query?.prompt ?? DEFAULT_PROMPT_OPTIONS,
    samples: config.query?.samples ?? 1,
    concurrency: config.concurrency,
  };
  const finish = (): RunOutcome => {
    const ordered = selected
      .map((l) => records.get(l.instance.id))
      .filter((r): r is InstanceRecord => !!r);
    const comparison = compareRuns(ordered, baseline?.instances, config.policy);
    const results: Results = {
      schema: 'tracegate/results@1',
      model: config.model,
      promptVersion: PROMPT_VERSION,
      prompt: describePrompt(query.prompt),
      query: summarizeQuery(ordered, deps.client.identity, query.samples),
      commit: config.commit,
      startedAt,
      finishedAt: new Date().toISOString(),
      harvest: {
        cached: harvest.cached,
        harvested: harvest.harvested,
        failed: harvest.failed,
        backend: harvest.backend,
      },
      summary: summarize(ordered),
      instances: ordered,
      comparison,
    };
    const report = renderReport(results, comparison);
    out.writeResults(results, report);
    return { results, comparison, report, harvest };
  };

  try {
    const client = withResponseCache(
      deps.client,
      deps.responseCache,
      config.model.revision,
      deps.log,
    );
    await queryInstances(answerable, client, query, keep);
  } catch (error) {
    finish();
    if (error instanceof ModelRequestError)
      throw new EndpointRejectedError(deps.client.endpoint, error.message);
    throw error;
  }
  deps.log(`Wrote ${join(config.outDir, 'results.json')} and report.md`);
  return finish();
}
