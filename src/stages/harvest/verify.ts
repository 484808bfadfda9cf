/**
 * B1/B2 replies run against both versions in the sandbox (tracer/tracegate_tracer/comet/verify.py):
 * one tracer job of verify specs per environment, one run (a verification is an execution of
 * the reply, not an oracle two runs must agree on), read as strictly as a harvest's results.
 */
import { verificationSchema, type CometReply, type VerifyOutcome } from '../../contracts/comet.js';
import type { ResolvedEnvironment } from '../../contracts/environment.js';
import {
  partialOutputOf,
  type HarvestBackend,
  type HarvestJob,
  type VerifySpec,
} from '../../contracts/harvest-backend.js';
import type { CometKind } from '../../contracts/kinds.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import { messageOf } from '../../errors.js';
import { familyOf } from '../../families/registry.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import { privatePackagesOf } from './job-plan.js';
import { readResultLines } from './results.js';

/** One reply to verify, and the key its verification is stored under. */
export interface VerifyItem {
  key: string;
  loaded: LoadedInstance;
  reply: CometReply;
}

/** Seconds a job may take per reply (B2: four pytest runs of up to 20 s each, and the versions' copies). */
const SECONDS_PER_REPLY = 100;

/**
 * Where a reply's verification is stored: the instance (its content), the environment its
 * oracle was harvested in, the tracer, and the reply itself.
 */
export function verificationKey(
  loaded: LoadedInstance,
  envDigest: string,
  tracerDigest: string,
  reply: CometReply,
): string {
  return sha256(
    canonicalJson([
      'verification@1',
      loaded.contentHash,
      envDigest,
      tracerDigest,
      loaded.instance.kind,
      reply,
    ]),
  );
}

/** The job verifying `items` (all of environment `env`), and its specs for reading the results. */
export function verifyJob(
  env: ResolvedEnvironment,
  items: readonly VerifyItem[],
): { job: HarvestJob; specs: VerifySpec[] } {
  const specs = items.map(({ loaded, reply }, i): VerifySpec => {
    const { instance } = loaded;
    if (!familyOf(instance.kind).runsReplies || !instance.mutant)
      throw new Error(`${instance.id} is not a B1/B2 instance with a mutant`);
    const { file, line, original, replacement } = instance.mutant;
    return {
      id: `verify-${i}`,
      verify: {
        kind: instance.kind as CometKind,
        target: instance.target,
        mutant: { file, line, original, replacement },
        reply: reply as Record<string, unknown>,
      },
      instance_hash: loaded.contentHash,
      env_digest: env.digest,
    };
  });
  const tops = privatePackagesOf(items.map((i) => i.loaded.instance.mutant));
  return {
    job: {
      environment: env,
      // The replies need nothing of the suite: no instance directory is mounted.
      instanceDirs: [],
      timeoutMs: (items.length * SECONDS_PER_REPLY + 120) * 1000,
      label: `verification of ${items.length} repl${items.length === 1 ? 'y' : 'ies'}`,
      ...(tops ? { privatePackages: tops } : {}),
      plan: (paths) => ({ work_dir: paths.workDir, isolation: paths.isolation, instances: specs }),
    },
    specs,
  };
}

/**
 * Runs the job and reads each reply's verification; a job that fails part way keeps the
 * verifications its tracer wrote before, and the rest get the failure as their reason.
 */
export async function runVerifications(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: readonly VerifyItem[],
): Promise<VerifyOutcome[]> {
  const { job, specs } = verifyJob(env, items);
  let stdout: string;
  let failure: string | undefined;
  try {
    stdout = await backend.run(job);
  } catch (error) {
    stdout = partialOutputOf(error) ?? '';
    failure = messageOf(error);
  }
  const read = readResultLines(stdout, specs);
  return specs.map((spec): VerifyOutcome => {
    const result = read.get(spec.id);
    if (result === undefined || typeof result === 'string')
      return { status: 'error', reason: failure ?? result ?? 'no result' };
    if (result.status !== 'ok')
      return { status: 'error', reason: `verification ${result.status}: ${result.reason ?? ''}` };
    const verification = verificationSchema.safeParse(result.verification);
    if (!verification.success || verification.data.kind !== spec.verify.kind)
      return { status: 'error', reason: 'the tracer returned no readable verification' };
    return { status: 'ok', verification: verification.data, cached: false };
  });
}
