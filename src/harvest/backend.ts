import type { Environment } from '../instances/schema.js';

/** A plan for tracer/harvest.py, with paths as the tracer will see them. */
export interface TracerPlan {
  out_dir: string;
  instances: {
    id: string;
    dir: string;
    tests: string[];
    kind: string;
    target: { file: string; function: string };
    query: Record<string, unknown>;
    timeout_seconds: number;
    /** The instance's own answer parser (a file in its directory), if any. */
    parser: string | null;
  }[];
}

/** One harvest job: run the tracer over some instances of one environment. */
export interface HarvestJob {
  environment: Environment;
  envDigest: string;
  /** Host directories of the instances, by id. */
  instanceDirs: Map<string, string>;
  /** Builds the plan given a mapping from host paths to the tracer's paths. */
  plan(paths: { outDir: string; instanceDir: (id: string) => string }): TracerPlan;
  /** Host directory where result.json files must appear (out_dir/<id>/result.json). */
  hostOutDir: string;
  /** Upper bound for the whole job. */
  timeoutMs: number;
}

/**
 * Where harvest runs: a Docker engine (the default) or a local virtualenv.
 * Only the Docker backend imports dockerode.
 */
export interface HarvestBackend {
  readonly name: string;
  /** Throws an infrastructure error (exit 3) when the backend cannot run at all. */
  ensureAvailable(): Promise<void>;
  /** Runs one job; result.json files land in job.hostOutDir. */
  run(job: HarvestJob): Promise<void>;
  /** How many containers (or processes) this backend started, for tests and logs. */
  readonly started: number;
}
