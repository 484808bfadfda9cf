/**
 * B1/B2 replies run against both versions in the sandbox (tracer/tracegate_tracer/comet/verify.py):
 * B1's in one tracer job of verify specs per batch, each B2 run in a job (a container) of its own;
 * run once (a verification is an execution of the reply, not an oracle two runs must agree on),
 * read as strictly as a harvest's results.
 */
import type { z } from 'zod';
import {
  verificationResultSchema,
  verificationSchema,
  type CometReply,
  type TestRun,
  type VerificationResult,
  type VerifyOutcome,
} from '../../contracts/comet.js';
import type { ResolvedEnvironment } from '../../contracts/environment.js';
import {
  partialOutputOf,
  type HarvestBackend,
  type HarvestJob,
  type VerifySpec,
} from '../../contracts/harvest-backend.js';
import type { CometKind } from '../../contracts/kinds.js';
import { B2_RUNS, type B2Run } from '../../contracts/tracer-protocol.js';
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

/** Seconds a job may take per reply (B1: two calls; B2: one pytest run of up to 20 s, and the versions' copies). */
const SECONDS_PER_REPLY = 60;

/**
 * B2 containers running at once: one per core here. Four showed no gain in CI (the bundle test
 * 284.8 s with two, 284.4 s with four; 237.8 s with four once in a working tree:
 * docs/benchmarks.md), and each container may take 2 GiB.
 */
const B2_CONTAINERS = 2;

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

/** The job verifying `items` (all of environment `env`; B2 ones each with the runs `runs` names). */
export function verifyJob(
  env: ResolvedEnvironment,
  items: readonly VerifyItem[],
  runs?: readonly B2Run[],
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
        ...(runs && instance.kind === 'B2_RegressionTest' ? { runs: [...runs] } : {}),
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
      label:
        `verification of ${items.length} repl${items.length === 1 ? 'y' : 'ies'}` +
        (runs ? ` (${runs.join(', ')})` : ''),
      ...(tops ? { privatePackages: tops } : {}),
      plan: (paths) => ({ work_dir: paths.workDir, isolation: paths.isolation, instances: specs }),
    },
    specs,
  };
}

/**
 * One job's verifications, read as strictly as a harvest's results; a job that fails part way
 * keeps the verifications its tracer wrote before, and the rest get the failure as their reason.
 */
async function runJob<V extends VerificationResult>(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: readonly VerifyItem[],
  schema: z.ZodType<V>,
  runs?: readonly B2Run[],
): Promise<Outcome<V>[]> {
  const { job, specs } = verifyJob(env, items, runs);
  let stdout: string;
  let failure: string | undefined;
  try {
    stdout = await backend.run(job);
  } catch (error) {
    stdout = partialOutputOf(error) ?? '';
    failure = messageOf(error);
  }
  const read = readResultLines(stdout, specs);
  return specs.map((spec): Outcome<V> => {
    const result = read.get(spec.id);
    if (result === undefined || typeof result === 'string')
      return { status: 'error', reason: failure ?? result ?? 'no result' };
    if (result.status !== 'ok')
      return { status: 'error', reason: `verification ${result.status}: ${result.reason ?? ''}` };
    const verification = schema.safeParse(result.verification);
    if (!verification.success || verification.data.kind !== spec.verify.kind)
      return { status: 'error', reason: 'the tracer returned no readable verification' };
    const got = verification.data;
    // A run asked for is a run returned, and no other: a container answers for its own run only.
    if (runs && got.kind === 'B2_RegressionTest' && !got.refused) {
      const names = Object.keys(got.runs ?? {});
      if (names.length !== runs.length || !runs.every((r) => names.includes(r)))
        return {
          status: 'error',
          reason:
            `asked to run ${runs.join(', ')}, the tracer answered for ${names.join(', ') || 'none'}: ` +
            'not verified (is the tracer in the image the one this tracegate ships?)',
        };
    }
    return { status: 'ok', verification: got };
  });
}

type Outcome<V> = { status: 'ok'; verification: V } | { status: 'error'; reason: string };

/** Runs `tasks` with at most `limit` at once, each result in its task's place. */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/**
 * A B2 reply's runs, each in a container of its own, so that nothing one run leaves in its
 * container (the process-id counter, the memory cgroup's peak, anything a scrub can miss) is
 * there for another to find: the plain runs first, then, when they tell the versions apart
 * (fail, pass), the respelled ones. A refusal or an error of any run is the reply's.
 */
async function verifyB2(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: readonly VerifyItem[],
): Promise<VerifyOutcome[]> {
  const runsOf = items.map(() => ({}) as Partial<Record<B2Run, TestRun>>);
  const outcomes: (VerifyOutcome | undefined)[] = items.map(() => undefined);
  for (const round of [B2_RUNS.slice(0, 2), B2_RUNS.slice(2)]) {
    const todo = items.flatMap((item, i) => {
      if (outcomes[i]) return [];
      const plain = runsOf[i]!;
      if (
        round[0] === 'buggy_respelled' &&
        !(plain.buggy?.verdict === 'fail' && plain.correct?.verdict === 'pass')
      )
        return [];
      return round.map((run) => ({ item, i, run }));
    });
    const done = await pooled(
      todo.map(
        ({ item, run }) =>
          () =>
            runJob(backend, env, [item], verificationResultSchema, [run]).then((o) => o[0]!),
      ),
      B2_CONTAINERS,
    );
    todo.forEach(({ i, run }, k) => {
      const outcome = done[k]!;
      if (outcomes[i]) return;
      if (outcome.status !== 'ok') outcomes[i] = outcome;
      else if (outcome.verification.kind !== 'B2_RegressionTest')
        outcomes[i] = { status: 'error', reason: 'the tracer verified another kind' };
      else if (outcome.verification.refused || !outcome.verification.runs?.[run])
        outcomes[i] = {
          status: 'ok',
          verification: {
            kind: 'B2_RegressionTest',
            refused: outcome.verification.refused ?? 'no runs',
          },
          cached: false,
        };
      else runsOf[i]![run] = outcome.verification.runs[run];
    });
  }
  return outcomes.map(
    (outcome, i): VerifyOutcome =>
      outcome ?? {
        status: 'ok',
        verification: {
          kind: 'B2_RegressionTest',
          runs: runsOf[i] as { buggy: TestRun; correct: TestRun } & Partial<Record<B2Run, TestRun>>,
        },
        cached: false,
      },
  );
}

/**
 * Each reply's verification: B1 replies (data, never code) in one job, B2 replies each run in a
 * container of its own (verifyB2).
 */
export async function runVerifications(
  backend: HarvestBackend,
  env: ResolvedEnvironment,
  items: readonly VerifyItem[],
): Promise<VerifyOutcome[]> {
  const isB2 = (item: VerifyItem) => item.loaded.instance.kind === 'B2_RegressionTest';
  const b1 = items.filter((item) => !isB2(item));
  const b2 = items.filter(isB2);
  const [one, two] = await Promise.all([
    b1.length ? runJob(backend, env, b1, verificationSchema) : Promise.resolve([]),
    verifyB2(backend, env, b2),
  ]);
  const byItem = new Map<VerifyItem, VerifyOutcome>();
  b1.forEach((item, i) => {
    const outcome = one[i]!;
    byItem.set(item, outcome.status === 'ok' ? { ...outcome, cached: false } : outcome);
  });
  b2.forEach((item, i) => byItem.set(item, two[i]!));
  return items.map((item) => byItem.get(item)!);
}
