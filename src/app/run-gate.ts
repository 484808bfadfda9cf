import {
  defaultInstancesDir,
  loadSelection,
  scorerId,
  toGatePolicy,
  toRunDeps,
  toRunInput,
  topUpPool,
} from './config/assemble.js';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { plannedLooks } from '../stages/compare/sequential.js';
import { decide, resolveBaseline } from './decide.js';
import { NO_HARVEST, reportContext } from './results.js';
import { readResults, ResultsDir } from '../adapters/stores/results-dir.js';
import { mergeShards, type ShardResults } from './shards.js';
import type { RunInput } from './run-input.js';
import { inheritSelection } from './config/selection.js';
import type { Baseline, BaselineSource, ResponseCache } from '../contracts/ports.js';
import { baselineSource, historyStore, recordRun } from './config/history.js';
import type { RunOptions } from './config/options.js';
import { messageOf } from '../errors.js';
import type { BaselineEvent } from '../adapters/history/baseline.js';
import type { HistoryStore } from '../adapters/history/store.js';
import { withApiBase } from '../adapters/model/endpoint.js';
import { runPipeline } from './pipeline.js';
import { cacheLayout } from '../adapters/stores/layout.js';
import { cacheKeys } from '../adapters/stores/cache-keys.js';
import { CacheImageShelf } from '../adapters/stores/image-shelf.js';
import type { GatePorts, GateOutcome } from './ports.js';
import type { Logger } from './config/assemble.js';
import { trendRows } from './trend.js';
import { shardSelection } from './shards.js';
import { shardPart } from '../stages/select/shard.js';

/** What a door asks of the application: one gate run, already parsed. */
export interface GateRequest {
  options: RunOptions;
  /** Where this run is and how its baseline is found (push, pull request); none: no commit. */
  event?: BaselineEvent;
  /** Record the run as the history entry of this commit (push runs), when a history is given. */
  record?: { commit: string; parent?: string; branch?: string };
  /** Commits the report's trend shows (0: none); a PR's trend follows its base branch. */
  trend: { last: number; branch?: string };
  /** The override label, when the door found it on the pull request. */
  accept?: { label: string; note?: string };
  /** How a baseline gets recorded, said when there is none (each door has its own way). */
  howToRecord: string;
  /**
   * A failed history write costs the record only (the Action: the verdict still
   * reaches the PR), instead of failing the run (the CLI).
   */
  recordBestEffort?: boolean;
}

/**
 * The one run both doors call: select once, restore the shared cache for that
 * selection, resolve the baseline, run the pipeline (harvest → … → report,
 * with the trend whenever a history is given), record the run in the
 * history, save the cache. The doors parse their inputs before and map the
 * outcome to exit codes, outputs and GitHub after.
 */
export async function runGate(request: GateRequest, ports: GatePorts): Promise<GateOutcome> {
  const { logger } = ports;
  logger.phase?.('Selection');
  // A pasted `…/v1/chat/completions` is cut back to its base before anything keys on it.
  const given = withApiBase(request.options, logger.warn);
  // The baseline first: its recorded selection is this run's default (pairing by construction).
  const history = given.history
    ? historyStore(given.history, logger, ports.branchHistory)
    : undefined;
  const baseline = once(
    baselineSource(
      given,
      history,
      request.event,
      ports.commitGraph,
      scorerId(given),
      logger,
      request.howToRecord,
    ),
  );
  const prior = await baseline?.resolve().catch(() => undefined); // the pipeline says why
  const options = inheritSelection(given, prior?.results.selection, logger.log);
  const loaded = loadSelection(options, logger);
  const { suite } = loaded;
  // The directory given (the demo's is one package of the bundle), not the root its files resolve in.
  logger.log(
    `Suite ${options.instances ?? defaultInstancesDir()}: ${suite.instances.length} instance(s)`,
  );
  // A shard answers its part of the selection (clusters whole); the merge compares and records.
  const shard = options.shard && shardSelection(options, loaded.selected, prior?.results, logger);
  const selected = shard ? shardPart(loaded.selected, shard.plan, shard.index) : loaded.selected;
  const commit = request.record?.commit ?? eventCommit(request.event);
  const planned = toRunInput(
    shard ? { ...options, 'top-up': 0 } : options,
    selected,
    commit,
    suite.rejected,
    topUpPool(suite, options, selected),
  );
  const input = shard ? { ...planned, selection: { ...planned.selection, shard } } : planned;
  const shared = ports.sharedCache && {
    store: ports.sharedCache.store,
    paths: cacheLayout(options.cache).shared,
    // Keys from the same selection the run uses: the tracer, the recipes and the instances' bytes.
    keys: cacheKeys(
      [
        input.harvest.tracerDigest,
        options['base-image'] ?? 'default-base',
        ...selected.map((s) => s.contentHash),
      ],
      input.query.model.revision,
      ports.sharedCache.runId,
    ),
  };
  const started = Date.now();
  let responses: ResponseCache | undefined;
  try {
    if (shared) await shared.store.restore(shared.paths, shared.keys);
    const trend = history && request.trend.last > 0 && !shard ? request.trend : undefined;
    const rows = trend ? await trendRows(history, logger) : [];
    const deps = toRunDeps(options, logger, suite, ports.lifecycle, baseline, {
      ...(shared && ports.sharedCache?.imageBudget
        ? {
            images: new CacheImageShelf(
              shared.store,
              cacheLayout(options.cache).images,
              ports.sharedCache.imageBudget,
              logger.log,
            ),
          }
        : {}),
      ...ports.engines,
    });
    responses = deps.stores.responses;
    const outcome = await runPipeline(
      {
        ...input,
        gate: { ...input.gate, ...(request.accept ? { accept: request.accept } : {}) },
        report: {
          ...input.report,
          ...trendOf(trend, rows, options.name),
        },
      },
      deps,
    );
    if (shard)
      logger.log(
        `Shard ${shard.index} of ${shard.plan.count}: not compared or recorded alone; ` +
          '`tracegate merge` of every shard gives the verdict and records the run.',
      );
    else if (history && request.record)
      await record(history, request, outcome.results, ports).catch((error: unknown) => {
        if (!request.recordBestEffort) throw error;
        logger.warn(`tracegate could not record this run in the history: ${messageOf(error)}`);
      });
    else if (history && !request.event)
      logger.warn(
        '--history without --commit: this run is compared but not recorded (give --commit SHA).',
      );
    return { ...outcome, suiteRoot: suite.reader.root };
  } finally {
    // Also after a failed run, so a re-run does not redo its work.
    if (shared) {
      pruneReplies(responses, started, logger);
      await shared.store.save(shared.paths, shared.keys);
    }
  }
}

/**
 * The replies of other runs left out of the shared cache before it is saved
 * (those this run neither read nor wrote since `since`). A prune that fails
 * (a file it may not remove) costs a larger entry only: warned, never the
 * run's outcome, and the entry is still saved.
 */
export function pruneReplies(
  responses: ResponseCache | undefined,
  since: number,
  logger: Pick<Logger, 'log' | 'warn' | 'debug'>,
): void {
  let pruned: number;
  try {
    pruned = responses?.prune?.(since) ?? 0;
  } catch (error) {
    logger.warn(
      `Could not leave other runs' replies out of the shared cache (${messageOf(error)}); ` +
        'the entry is saved with them: larger, still correct. Make the cache directory writable ' +
        "(--cache) to keep it to this run's replies.",
    );
    return;
  }
  // Housekeeping a user need not read: the debug log only.
  if (pruned)
    logger.debug?.(
      `Left ${pruned} reply(ies) of other runs out of the shared cache (none was read).`,
    );
}

/** What a door asks of the merge: the gate request's, and where the shards' results are. */
export interface MergeRequest extends GateRequest {
  /** Each a shard's output directory, or a directory holding them (downloaded artifacts). */
  dirs: string[];
}

/**
 * The gate over a sharded run: the shards' results merged into the one run they are parts of
 * (app/shards.ts), then compared with the baseline, reported, written to `out` and recorded in
 * the history once, exactly as an unsharded run would be. No harvest and no model request.
 */
export async function mergeGate(
  request: MergeRequest,
  ports: Pick<GatePorts, 'logger' | 'commitGraph' | 'branchHistory'>,
): Promise<GateOutcome> {
  const { logger } = ports;
  logger.phase?.('Merge');
  const options = withApiBase(request.options, logger.warn);
  const shards = readShards(request.dirs);
  const results = mergeShards(shards, {
    scoring: options.scoring,
    worldFactor: options['world-factor'],
    policy: toGatePolicy(options),
    scorer: scorerId(options),
  });
  const merged = results.merged!;
  logger.log(
    `Merged ${shards.length} of ${merged.count} shard(s): ${results.instances.length} record(s)` +
      (merged.missing.length ? `; missing shard(s) ${merged.missing.join(', ')}` : ''),
  );
  const history = options.history
    ? historyStore(options.history, logger, ports.branchHistory)
    : undefined;
  const source = baselineSource(
    options,
    history,
    request.event,
    ports.commitGraph,
    scorerId(options),
    logger,
    request.howToRecord,
  );
  logger.phase?.('Compare and report');
  const policy = toGatePolicy(options);
  const trend = history && request.trend.last > 0 ? request.trend : undefined;
  const rows = trend ? await trendRows(history, logger) : [];
  const { comparison, report } = decide(
    results,
    await resolveBaseline(source, logger.warn),
    { policy, ...(request.accept ? { accept: request.accept } : {}) },
    plannedLooks(policy.alpha, results.instances.length, 0)[0],
    (r) =>
      reportContext(
        {
          ...(r.commit ? { commit: r.commit } : {}),
          ...trendOf(trend, rows, options.name),
        },
        r,
      ),
  );
  const sink = new ResultsDir(options.out);
  for (const record of results.instances) sink.append(record);
  sink.finish(results, report);
  logger.log(`Wrote ${sink.location} and its report`);
  if (history && request.record)
    await record(history, request, results, ports).catch((error: unknown) => {
      if (!request.recordBestEffort) throw error;
      logger.warn(`tracegate could not record this run in the history: ${messageOf(error)}`);
    });
  return {
    results,
    comparison,
    report,
    harvest: NO_HARVEST,
    suiteRoot: realpathSync(options.instances ?? defaultInstancesDir()),
  };
}

/**
 * The shards' results under `dirs`: each directory's results.json, or, for a directory without
 * one (where a matrix's artifacts were downloaded), each of its subdirectories' (in name order).
 */
function readShards(dirs: readonly string[]): ShardResults[] {
  const found: ShardResults[] = [];
  for (const dir of dirs) {
    const own = join(dir, 'results.json');
    if (existsSync(own)) {
      found.push({ results: readResults(own, 'merge:', false), source: own });
      continue;
    }
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new UsageError(`merge: ${dir} is not a directory (give each shard's output directory)`);
    const inner = readdirSync(dir)
      .sort()
      .map((name) => join(dir, name, 'results.json'))
      .filter((file) => existsSync(file));
    if (!inner.length)
      throw new UsageError(
        `merge: ${dir} holds no results.json, nor do its subdirectories: give the shards' output ` +
          'directories, or the directory their artifacts were downloaded to',
      );
    for (const file of inner)
      found.push({ results: readResults(file, 'merge:', false), source: file });
  }
  return found;
}

/** The report's trend: the history's rows under this run's name, when a trend is asked for. */
function trendOf(
  trend: GateRequest['trend'] | undefined,
  rows: Awaited<ReturnType<typeof trendRows>>,
  name: string,
): Pick<RunInput['report'], 'trend'> {
  if (!trend) return {};
  return {
    trend: { rows, name, last: trend.last, ...(trend.branch ? { branch: trend.branch } : {}) },
  };
}

/** The source with its lookup done once: the selection and the pipeline read the same baseline. */
function once(source: BaselineSource | undefined): BaselineSource | undefined {
  if (!source) return undefined;
  let looked: Promise<Baseline | undefined> | undefined;
  return { resolve: () => (looked ??= source.resolve()) };
}

function eventCommit(event: BaselineEvent | undefined): string | undefined {
  if (!event) return undefined;
  return event.kind === 'pull_request' ? event.headSha : event.sha;
}

function record(
  history: HistoryStore,
  request: GateRequest,
  results: GateOutcome['results'],
  ports: Pick<GatePorts, 'logger'>,
): Promise<void> {
  const at = request.record!;
  return recordRun(
    history,
    {
      name: request.options.name,
      commit: at.commit,
      ...(at.parent ? { parent: at.parent } : {}),
      ...(at.branch ? { branch: at.branch } : {}),
      retention: request.options.retention,
    },
    results,
    ports.logger,
    results.accepted,
  );
}
