import type { CachedOracle } from './oracle.js';
import type { Verification } from './comet.js';
import type { InstanceRecord, Results } from './results.js';
import type { Completion } from './model.js';
import type { ResolvedSource, Runtime } from './environment.js';
import type { SourceViewStore } from './source-view.js';

/** What an environment resolved to on an engine: its runtime and its source as the backend saw it. */
export interface RememberedRuntime {
  runtime: Runtime;
  source: ResolvedSource;
}

/**
 * Each environment's last resolution, keyed by its recipe, source and backend
 * choice: with it, a run whose oracles are all cached finds them without an
 * engine (the runtime is part of the oracles' key).
 */
export interface RuntimeMemo {
  get(key: string): RememberedRuntime | undefined;
  put(key: string, value: RememberedRuntime): void;
}

/** Content-addressed oracle store. */
export interface OracleStore {
  get(key: string): CachedOracle | undefined;
  put(key: string, entry: CachedOracle): void;
}

/** An instance's harvest failure, remembered under its oracle key (the tracer, environment and instance). */
export interface RememberedFailure {
  status: 'invalid' | 'timeout' | 'error';
  reason: string;
  /** Runs that took it from here instead of harvesting the instance again. */
  reused: number;
}

/** Harvest failures by oracle key: a warm run does not harvest a failing instance again. */
export interface FailureStore {
  get(key: string): RememberedFailure | undefined;
  put(key: string, failure: RememberedFailure): void;
  delete(key: string): void;
}

/**
 * What B1/B2 replies did against both versions (contracts/comet.ts), by instance, environment,
 * tracer and reply: re-scoring a cached reply starts no container.
 */
export interface VerificationStore {
  get(key: string): Verification | undefined;
  put(key: string, verification: Verification): void;
}

/** Where every run's answer of a nondeterministic instance is kept; returns where. */
export interface QuarantineStore {
  put(id: string, runs: unknown[]): string;
}

/** Stored model replies, by request key. */
export interface ResponseCache {
  get(key: string): Completion | undefined;
  put(key: string, completion: Completion): void;
  /**
   * Keeps only the replies this run read or wrote (before a shared cache is saved, so that its
   * entry holds no earlier revision's replies); returns how many it removed.
   */
  prune?(since: number): number;
}

/**
 * Where a run's results go: each record as it finishes (so an interrupted
 * run keeps every answer it got), the whole results and report at the end.
 */
export interface ResultsSink {
  append(record: InstanceRecord): void;
  finish(results: Results, report: string): void;
  /** Where the results are, for messages (e.g. `tracegate-out/results.json`). */
  readonly location: string;
}

/** The baseline run to compare with, and how it was found. */
export interface Baseline {
  results: Results;
  /** e.g. `file baseline.json`, `history entry of abc1234 (merge base)`. */
  source: string;
}

export interface BaselineSource {
  resolve(): Promise<Baseline | undefined>;
}

/** The stores a run reads and writes, passed in by the entry point. */
export interface Stores {
  oracles: OracleStore;
  quarantine?: QuarantineStore;
  failures?: FailureStore;
  results: ResultsSink;
  baseline?: BaselineSource;
  /** Used only when the model revision is known. */
  responses?: ResponseCache;
  /** B1/B2 replies' verifications (none: every reply is run again). */
  verifications?: VerificationStore;
  /** `context: repo`: exported source views by environment digest (none: exported each run). */
  views?: SourceViewStore;
}

/**
 * Where built environment images are kept for the next fresh machine (the
 * Actions cache, when no registry is given): one archive file per key.
 */
export interface ImageShelf {
  /** The archive's file for `key` (its directory is created; a restore fills it, a save reads it). */
  fileOf(key: string): string;
  /** Restores the archive of `key`; whether it is now at fileOf(key). A miss only costs time. */
  take(key: string): Promise<boolean>;
  /**
   * Saves fileOf(key) under `key` unless it would overrun what one run may
   * save (says so, with the sizes); never fails the run.
   */
  put(key: string, label: string): Promise<void>;
  /** Removes the local archive of `key`. */
  release(key: string): void;
}
