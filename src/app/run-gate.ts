import { loadSelection, scorerId, toRunDeps, toRunInput, topUpPool } from './config/assemble.js';
import { inheritSelection } from './config/selection.js';
import type { Baseline, BaselineSource } from '../contracts/ports.js';
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
import { pruneUnused } from '../adapters/stores/response-cache.js';
import type { GatePorts, GateOutcome } from './ports.js';
import { trendRows } from './trend.js';

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
  const { suite, selected } = loadSelection(options, logger);
  logger.log(`Suite ${suite.reader.root}: ${suite.instances.length} instance(s)`);
  const commit = request.record?.commit ?? eventCommit(request.event);
  const input = toRunInput(
    options,
    selected,
    commit,
    suite.rejected,
    topUpPool(suite, options, selected),
  );
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
  try {
    if (shared) await shared.store.restore(shared.paths, shared.keys);
    const trend = history && request.trend.last > 0 ? request.trend : undefined;
    const rows = trend ? await trendRows(history, logger) : [];
    const outcome = await runPipeline(
      {
        ...input,
        gate: { ...input.gate, ...(request.accept ? { accept: request.accept } : {}) },
        report: {
          ...input.report,
          ...(trend
            ? {
                trend: {
                  rows,
                  name: options.name,
                  last: trend.last,
                  ...(trend.branch ? { branch: trend.branch } : {}),
                },
              }
            : {}),
        },
      },
      toRunDeps(options, logger, suite, ports.lifecycle, baseline, {
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
      }),
    );
    if (history && request.record)
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
      const pruned = pruneUnused(cacheLayout(options.cache).responses, started);
      if (pruned)
        logger.log(
          `Left ${pruned} reply(ies) of other runs out of the shared cache (none was read).`,
        );
      await shared.store.save(shared.paths, shared.keys);
    }
  }
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
  ports: GatePorts,
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
