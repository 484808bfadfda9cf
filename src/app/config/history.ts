import { commitShaSchema, HISTORY_SCHEMA, type HistoryEntry } from '../../contracts/history.js';
import type { Results } from '../../contracts/results.js';
import { UsageError } from '../../errors.js';
import {
  HistoryBaselineSource,
  type BaselineEvent,
  type CommitGraph,
} from '../../adapters/history/baseline.js';
import { DirHistory } from '../../adapters/history/dir.js';
import type { HistoryStore } from '../../adapters/history/store.js';
import { promptId } from '../../stages/prompt/build.js';
import { renderDashboard } from '../../stages/report/dashboard.js';
import type { BaselineSource } from '../../contracts/ports.js';
import { FileBaseline } from '../../adapters/stores/results-dir.js';
import type { Logger } from './assemble.js';
import type { RunOptions } from './options.js';

/** The history named by `--history`: a directory (CLI), or `branch:NAME` built by the Action. */
export function historyStore(
  spec: string,
  logger: Logger,
  branch?: (name: string) => HistoryStore,
): HistoryStore {
  const m = /^branch:(.+)$/.exec(spec);
  if (!m) return DirHistory.open(spec, logger.warn);
  if (!branch)
    throw new UsageError(
      `--history ${spec}: a data branch is written through the GitHub API, by the Action; ` +
        'the CLI takes a directory (--history DIR).',
    );
  return branch(m[1]!);
}

/**
 * The baseline a run compares with: a results file; an explicit commit of the
 * history; or, with a history and `baseline: auto` (the default there), the
 * entry the event points at (merge base, first parent, walking back).
 */
export function baselineSource(
  options: Pick<RunOptions, 'baseline' | 'name' | 'context'>,
  history: HistoryStore | undefined,
  event: BaselineEvent | undefined,
  graph: CommitGraph,
  scorer: string,
  logger: Logger,
  howToRecord: string,
): BaselineSource | undefined {
  const baseline = options.baseline ?? (history ? 'auto' : undefined);
  if (!baseline) return undefined;
  if (baseline !== 'auto' && !commitShaSchema.safeParse(baseline).success)
    return new FileBaseline(baseline);
  if (!history)
    throw new UsageError(
      `--baseline ${baseline} reads the history: give --history (a directory, or the Action's data branch).`,
    );
  const resolvedEvent: BaselineEvent | undefined =
    baseline === 'auto' ? event : { kind: 'commit', sha: baseline };
  if (!resolvedEvent)
    throw new UsageError(
      '--baseline auto needs the commit of this run: give --commit SHA (and --parent SHA).',
    );
  return new HistoryBaselineSource(
    {
      store: history,
      name: options.name,
      event: resolvedEvent,
      candidate: { prompt: promptId(options.context), scorer },
      graph,
      howToRecord,
    },
    logger.log,
  );
}

/** Records a finished run as the history entry of (commit, name), with the dashboard beside it. */
export async function recordRun(
  history: HistoryStore,
  run: { name: string; commit: string; parent?: string; branch?: string; retention: number },
  results: Results,
  logger: Logger,
  accepted?: { label: string; note?: string },
): Promise<void> {
  const entry: HistoryEntry = {
    schema: HISTORY_SCHEMA,
    name: run.name,
    commit: run.commit,
    ...(run.parent ? { parent: run.parent } : {}),
    ...(run.branch ? { branch: run.branch } : {}),
    recordedAt: new Date().toISOString(),
    verdict:
      results.comparison && typeof results.comparison === 'object'
        ? String((results.comparison as { verdict?: unknown }).verdict ?? '')
        : undefined,
    ...(accepted ? { accepted } : {}),
    results,
  };
  const outcome = await history.record(entry, {
    retention: { entries: run.retention },
    files: (rows) => ({ 'index.html': renderDashboard(rows) }),
  });
  logger.log(
    `Recorded ${run.name} @ ${run.commit.slice(0, 12)} in ${outcome.location}` +
      (outcome.dropped.length
        ? ` (retention dropped ${outcome.dropped.length} older entr(ies))`
        : ''),
  );
}
