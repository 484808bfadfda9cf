import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../contracts/environment.js';

/** One instance of a tracer plan (tracer/README.md, "The driver"), paths as the tracer sees them. */
export interface PlanSpec {
  id: string;
  dir: string;
  tests: string[];
  kind: string;
  target: { file: string; function: string };
  query: Record<string, unknown>;
  timeout_seconds: number;
  /** The instance's own answer parser (a file in its directory), if any. */
  parser: string | null;
  /** Where pytest runs; absent: `dir`. */
  cwd?: string;
  expect_failure: boolean;
  /** Echoed back in the result, so the host can check whose result it reads. */
  instance_hash: string;
  env_digest: string;
  /** A fresh variant: the tracer perturbs the tests' literal inputs (tracer/tracegate_tracer/variant.py). */
  variant_epoch?: number;
  variant_key?: string;
  /** Which of the tracer's perturbation strategies (variant.py STRATEGIES) this attempt uses. */
  variant_attempt?: number;
  /** A seeded mutant applied before the tests run (world-model kinds; tracer/tracegate_tracer/measure.py). */
  mutant?: { file: string; line: number; original: string; replacement: string };
  /** A SWE-Flux-format instance: run by its own harness (tracer/tracegate_tracer/swe_flux.py). */
  swe_flux?: { qa: string; instance: string };
}

/** A scouting spec (tracer/tracegate_tracer/scout.py): what a test file runs of the packages. */
export interface ScoutSpec {
  id: string;
  scout: { packages: string[] };
  dir: string;
  tests: string[];
  timeout_seconds: number;
  cwd?: string;
}

/** The plan tracer/harvest.py runs. */
export interface TracerPlan {
  work_dir: string;
  /** Per-group uids for the tests (the driver runs as root in the container); null on the host. */
  isolation: { uid_base: number } | null;
  instances: (PlanSpec | ScoutSpec)[];
  /** Default true: one test run records every target its specs name. */
  share_runs?: boolean;
}

/** How a backend places an instance's files: where its directory and the checkout appear. */
export interface PlanPaths {
  instanceDir: (index: number) => string;
  /** The environment's checkout as the tracer sees it (git and image sources). */
  checkout?: string;
  workDir: string;
  isolation: TracerPlan['isolation'];
}

/** One harvest job: run the tracer over some instances of one effective environment. */
export interface HarvestJob {
  environment: ResolvedEnvironment;
  /** Host directories of the instances (real paths, inside the suite), in plan order. */
  instanceDirs: string[];
  /** Builds the plan for the backend's paths. */
  plan(paths: PlanPaths): TracerPlan;
  /** Upper bound for the whole job. */
  timeoutMs: number;
  /** Names the job in logs, e.g. `run 1 of 2`. */
  label: string;
}

/**
 * Where harvest runs: a Docker engine (the default) or a local virtualenv.
 * Only the Docker backend imports dockerode.
 */
export interface HarvestBackend {
  readonly name: string;
  /** Throws an infrastructure error (exit 3) when the backend cannot run at all. */
  ensureAvailable(): Promise<void>;
  /**
   * Where and on what an environment runs (the base image, pulled or a
   * local substitute; the host interpreter), and an image source's id.
   */
  runtime(
    recipe: Environment,
    source: ResolvedSource | undefined,
  ): Promise<{
    runtime: Runtime;
    source: ResolvedSource;
  }>;
  /** Runs one job; returns the tracer's stdout (one result line per instance). */
  run(job: HarvestJob): Promise<string>;
  /**
   * Gets an environment ready to run (its image built) ahead of its jobs, while another
   * environment's run: optional; a failure here is run()'s to report, so it is swallowed.
   */
  prepare?(env: ResolvedEnvironment): Promise<void>;
}
