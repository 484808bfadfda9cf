import type { Engines, Lifecycle, Logger } from './config/assemble.js';
import type { CommitGraph } from '../adapters/history/baseline.js';
import type { HistoryStore } from '../adapters/history/store.js';
import type { CacheStore } from '../adapters/stores/cache-store.js';
import type { RunOutcome } from './run-input.js';

/** The side effects a gate run is built from, passed in by its door. */
export interface GatePorts {
  logger: Logger;
  lifecycle: Lifecycle;
  /** How the history's commits relate: git in the CLI, the GitHub API in the Action. */
  commitGraph: CommitGraph;
  /** Opens a `branch:NAME` history (the Action's data branch); the CLI has none. */
  branchHistory?: (branch: string) => HistoryStore;
  /**
   * A cache shared between runs (the Actions cache): restored before the run,
   * saved after; with `imageBudget` (bytes one run may save), it also keeps
   * the environment images the run builds, for the next fresh machine.
   */
  sharedCache?: { store: CacheStore; runId: string; imageBudget?: number };
  engines?: Engines;
}

/** What a gate run gives its door. */
export interface GateOutcome extends RunOutcome {
  /** Real path of the suite's root (the Action maps instance files to workspace paths from it). */
  suiteRoot: string;
}
