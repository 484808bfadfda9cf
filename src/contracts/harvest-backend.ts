import type { Environment, ResolvedEnvironment, ResolvedSource, Runtime } from './environment.js';
import type { TracerPlan } from './tracer-protocol.js';
import type { SourceView } from './source-view.js';

// The plan's types are the protocol's (one schema, src/contracts/tracer-protocol.ts), named here for the backends.
export type { PlanSpec, ScoutSpec, TracerPlan, VerifySpec } from './tracer-protocol.js';

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
  /**
   * The tracer stages in the environment's checkout (SWE-Flux instances, as their runner does):
   * the backend gives the job its own writable copy of it, discarded with the job.
   */
  writableCheckout?: boolean;
  /**
   * B1/B2 (tracer/tracegate_tracer/comet/versions.py): top-level packages the backend gives a mount of
   * their own at their installed place (a fresh copy, writable by the driver only), so the
   * driver can install one version at a time and no other copy stays readable to the reply.
   */
  privatePackages?: string[];
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
  /**
   * Runs one job; returns the tracer's stdout (one result line per instance).
   * When the job fails part way (an interrupt, a crash, a lost engine), the
   * error carries the lines written so far (withPartialOutput): the tracer
   * writes each group's results as it finishes, and those stand.
   */
  run(job: HarvestJob): Promise<string>;
  /**
   * Gets an environment ready to run (its image built) ahead of its jobs, while another
   * environment's run: optional; a failure here is run()'s to report, so it is swallowed.
   */
  prepare?(env: ResolvedEnvironment): Promise<void>;
  /**
   * The environment's source as its tests import it (`context: repo`): read from the
   * environment's image (built if need be), never from a container that ran anything. Absent on
   * a backend that cannot export one.
   */
  exportSource?(env: ResolvedEnvironment): Promise<SourceView>;
}

const partialOutputs = new WeakMap<object, string>();

/** `error`, marked with the stdout a failed job had written before it failed (see HarvestBackend.run). */
export function withPartialOutput<E>(error: E, stdout: string): E {
  if (error && typeof error === 'object' && stdout) partialOutputs.set(error, stdout);
  return error;
}

/** The stdout a failed job had written before it failed, if its backend kept it. */
export function partialOutputOf(error: unknown): string | undefined {
  return error && typeof error === 'object' ? partialOutputs.get(error) : undefined;
}
