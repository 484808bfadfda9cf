import type { HarvestOutcome } from '../../contracts/oracle.js';
import type { EnvironmentSources, ResolvedEnvironment } from '../../contracts/environment.js';
import type { HarvestBackend } from '../../contracts/harvest-backend.js';
import type {
  FailureStore,
  OracleStore,
  QuarantineStore,
  RuntimeMemo,
} from '../../contracts/ports.js';

/** What the harvest stage is given: where it resolves, runs, stores. */
export interface HarvestDeps {
  /** Created on first use. */
  backend: () => HarvestBackend;
  sources: EnvironmentSources;
  oracles: OracleStore;
  /** Each environment's last resolution: a group whose oracles are all cached needs no engine. */
  runtimes?: RuntimeMemo;
  /** Which backend and base image resolve runtimes (a memo is only good for the same choice). */
  backendChoice?: string;
  quarantine?: QuarantineStore;
  /**
   * Instances that failed (or were quarantined) for this tracer, environment and instance:
   * not harvested again for RETRY_FAILED_AFTER runs (or until `retryFailed`).
   */
  failures?: FailureStore;
  /** Harvest the remembered failures again (`--retry-failed`). */
  retryFailed?: boolean;
  log: (message: string) => void;
  warn: (message: string) => void;
  /** Aborted on an interrupt: no further job starts; unharvested instances get `interrupted`. */
  signal?: AbortSignal;
  /**
   * One test run records every target its instances name (default); false: one run per
   * target, as before shared runs (the answers are the same: for side-by-side benchmarks).
   */
  shareRuns?: boolean;
}

export interface HarvestSummary {
  outcomes: Map<string, HarvestOutcome>;
  cached: number;
  harvested: number;
  failed: number;
  /** Of the failed, remembered from an earlier run rather than harvested again. */
  remembered?: number;
  /** Where misses were harvested: backend names, or "cache" when nothing was missing. */
  backend: string;
  /** Each effective environment: its digest and how it was obtained. */
  environments: { name: string; digest: string; source: string; runtime: string }[];
  /** Each instance's environment as it resolved (the source view of `context: repo` is its image's). */
  resolved?: ReadonlyMap<string, ResolvedEnvironment>;
}
