import type { Comparison, GatePolicy } from '../stages/compare/gate.js';
import type { IndexRow } from '../contracts/history.js';
import type { ModelClient } from '../contracts/model.js';
import type { Stores } from '../contracts/ports.js';
import type { LoadedInstance, RejectedFile } from '../contracts/suite.js';
import type { Results } from '../contracts/results.js';
import type { QueryConfig } from '../stages/query/stage.js';
import type { TrendOptions } from '../stages/report/trend.js';
import type { VariantMode } from '../stages/variants/variants.js';
import type { SelectionRecord, ShardPlan } from '../contracts/results.js';
import type { HarvestDeps, HarvestSummary } from '../stages/harvest/types.js';

/** What to run: the selection in order, and what may be added to it. */
export interface SelectionSlice {
  /** The selection: instances to run, in order. */
  selected: LoadedInstance[];
  /** Suite files rejected while loading: reported with the results, never run. */
  rejected?: RejectedFile[];
  /**
   * With `max` > 0: when the first look is inconclusive, up to `max` instances
   * of `pool` (the suite's instances this run did not select) that the
   * baseline scored are added, chosen by `seed` (sequential.ts), and the gate
   * decides again at the second look's level.
   */
  topUp?: { pool: LoadedInstance[]; max: number; seed: number };
  /** Fresh variants of the selection (perturbed test inputs), at an epoch. */
  variants?: { mode: VariantMode; epoch: number };
  /** How the items were selected, as results.json records it (a later run inherits it). */
  recorded?: SelectionRecord;
  /**
   * With `shard: i/n`: `selected` is part `index` of `plan`, split from `whole` (variants are
   * chosen over the whole, so the shards together search what one run would). No top-up, no
   * comparison: the merge of every part gives the verdict (app/merge.ts).
   */
  shard?: { index: number; plan: ShardPlan; whole: LoadedInstance[] };
}

/** What keys the harvest's oracles beyond each instance and environment. */
export interface HarvestSlice {
  /** Digest of the tracer's code (keys every oracle). */
  tracerDigest: string;
}

/** Who is asked, and how. */
export interface QuerySlice {
  model: { endpoint: string; name: string; revision?: string };
  config: QueryConfig;
  /** USD per million input / output tokens: results and the report carry the run's cost. */
  price?: { input: number; output: number };
  /** false: no endpoint check before the harvest (the client's preflight; on by default). */
  preflight?: boolean;
  /** Seconds the check waits for a server still starting (`endpoint-wait`; 0 or unset: one attempt). */
  endpointWait?: number;
}

/** How the run is judged against its baseline. */
export interface GateSlice {
  policy: GatePolicy;
  /** The scorer's `name@version` (recorded; runs of other scorers are not compared). */
  scorer: string;
  /**
   * Set when the override label is on the pull request: a `fail` verdict is
   * recorded as accepted (results.accepted), and the report says so.
   */
  accept?: { label: string; note?: string };
}

/** Where the run sits for its report. */
export interface ReportSlice {
  commit?: string;
  /** The trend's history rows (this run's own row is added); given whenever a history is. */
  trend?: TrendOptions & { rows: readonly IndexRow[] };
}

/**
 * Everything one run needs, already validated and selected (by the
 * application, for either door), in the slices the stages read: a stage's
 * signature names the slice it depends on.
 */
export interface RunInput {
  selection: SelectionSlice;
  harvest: HarvestSlice;
  query: QuerySlice;
  gate: GateSlice;
  report: ReportSlice;
}

/** The side effects a run is built from; the entry points pass the real ones, tests their own. */
export interface RunDeps {
  log: (message: string) => void;
  warn: (message: string) => void;
  /** A phase of the run begins (Logger.phase): the Action's log groups. */
  phase?: (name: string) => void;
  harvest: Pick<HarvestDeps, 'backend' | 'sources' | 'shareRuns'>;
  client: ModelClient;
  /**
   * What a variant must not be answerable by: the screen asks it every
   * candidate (the demo model; an instance it gets right is not kept).
   */
  screen: ModelClient;
  stores: Stores;
  /** Aborted on SIGINT/SIGTERM: the run stops, writes what it has (incomplete), and throws. */
  signal?: AbortSignal;
}

export interface RunOutcome {
  results: Results;
  /** The gate's comparison; a shard's is `no-baseline`, unset in its results (the merge compares). */
  comparison: Comparison;
  report: string;
  harvest: HarvestSummary;
}
