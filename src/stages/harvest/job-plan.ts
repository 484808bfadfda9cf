/** One tracer run over some instances of an environment, as a job a backend can run. */
import type { ResolvedEnvironment } from '../../contracts/environment.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import type { HarvestJob, PlanPaths, PlanSpec } from '../../contracts/harvest-backend.js';
import { familyOf } from '../../families/registry.js';

/** The top-level packages B1/B2 instances mutate: each gets a mount of its own (HarvestJob.privatePackages). */
export function privatePackagesOf(
  mutants: readonly ({ file: string } | undefined)[],
): string[] | undefined {
  const tops = [...new Set(mutants.flatMap((m) => (m ? [m.file.split('/')[0]!] : [])))].sort();
  return tops.length ? tops : undefined;
}

/**
 * The job, and the specs of the plan it last built (the backend builds it
 * with its own paths; the results are read against those specs).
 */
export function harvestJob(
  env: ResolvedEnvironment,
  items: LoadedInstance[],
  label: string,
  shareRuns: boolean | undefined,
): { job: HarvestJob; specs: () => PlanSpec[] } {
  let specs: PlanSpec[] = [];
  // Instances of one directory (a generated suite's test file and its questions) share its copy,
  // so the tracer sees one dir and shares one recorded run among the questions of a target.
  const dirs = [...new Set(items.map((i) => i.dir))];
  const dirIndex = new Map(dirs.map((dir, i) => [dir, i]));
  const job: HarvestJob = {
    environment: env,
    instanceDirs: dirs,
    timeoutMs: (items.reduce((sum, i) => sum + i.instance.timeout_seconds, 0) + 120) * 1000,
    label,
    // SWE-Flux's runner stages its QA directory in the checkout: the job gets a writable copy of it.
    ...(items.some((i) => i.sweFlux) ? { writableCheckout: true } : {}),
    ...withPrivate(
      privatePackagesOf(
        items.filter((i) => familyOf(i.instance.kind).runsReplies).map((i) => i.instance.mutant),
      ),
    ),
    plan: (paths) => {
      specs = items.map((loaded) => planSpec(loaded, env, paths, dirIndex.get(loaded.dir)!));
      return {
        work_dir: paths.workDir,
        isolation: paths.isolation,
        instances: specs,
        ...(shareRuns === false ? { share_runs: false } : {}),
      };
    },
  };
  return { job, specs: () => specs };
}

/** One instance of the plan, with its directory (`dirIndex`) and checkout as the backend places them. */
function planSpec(
  { instance, contentHash, variant, sweFlux }: LoadedInstance,
  env: ResolvedEnvironment,
  { instanceDir, checkout }: PlanPaths,
  dirIndex: number,
): PlanSpec {
  return {
    id: instance.id,
    dir: instanceDir(dirIndex),
    tests: instance.tests,
    kind: instance.kind,
    target: instance.target,
    query: instance.query,
    timeout_seconds: instance.timeout_seconds,
    parser: instance.parser ?? null,
    ...(instance.cwd === 'checkout' && checkout ? { cwd: checkout } : {}),
    ...(checkout ? { repo_root: checkout } : {}),
    expect_failure: instance.expect_failure,
    ...(instance.mutant
      ? {
          mutant: {
            file: instance.mutant.file,
            line: instance.mutant.line,
            original: instance.mutant.original,
            replacement: instance.mutant.replacement,
          },
        }
      : {}),
    instance_hash: contentHash,
    env_digest: env.digest,
    ...(variant
      ? {
          variant_epoch: variant.epoch,
          ...(variant.search
            ? { variant_search: true }
            : { variant_candidate: variant.candidate, variant_edit: variant.edit }),
        }
      : {}),
    ...(sweFlux ? { swe_flux: { qa: sweFlux.qa, instance: sweFlux.instance } } : {}),
  };
}

function withPrivate(tops: string[] | undefined): Pick<HarvestJob, 'privatePackages'> {
  return tops ? { privatePackages: tops } : {};
}
