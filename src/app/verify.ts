/**
 * The run's Verifier (contracts/comet.ts): B1/B2 replies go to the sandbox in
 * batches per environment, through the harvest's backend and environments (B1's
 * in one container, each B2 run in one of its own: stages/harvest/verify.ts); a reply verified before (same instance, environment, tracer,
 * reply) comes from the store and starts no container.
 */
import type { CometReply, Verifier, VerifyOutcome } from '../contracts/comet.js';
import type { CachedOracle } from '../contracts/oracle.js';
import type { VerificationStore } from '../contracts/ports.js';
import type { LoadedInstance } from '../contracts/suite.js';
import { DockerUnavailableError, messageOf } from '../errors.js';
import { groupByEnvironment } from '../stages/harvest/env-groups.js';
import { LazyEnvironments } from '../stages/harvest/environments.js';
import type { HarvestDeps } from '../stages/harvest/types.js';
import { runVerifications, verificationKey, type VerifyItem } from '../stages/harvest/verify.js';
import { canonicalJson } from '../util/hash.js';

/** Replies sent in one job at most; a batch also goes BATCH_WAIT_MS after its first reply came. */
const BATCH = 16;
const BATCH_WAIT_MS = 300;

interface Pending extends VerifyItem {
  envDigest: string;
  resolve: (outcome: VerifyOutcome) => void;
}

interface Lane {
  environments: LazyEnvironments;
  pending: Pending[];
  timer?: ReturnType<typeof setTimeout>;
  /** The lane's jobs run one after another (each container runs its replies one by one). */
  chain: Promise<void>;
}

export interface VerifierDeps {
  harvest: Pick<HarvestDeps, 'backend' | 'sources' | 'runtimes' | 'backendChoice' | 'signal'>;
  tracerDigest: string;
  store?: VerificationStore;
  log: (message: string) => void;
}

export function createVerifier(deps: VerifierDeps): Verifier & { settled(): Promise<void> } {
  const lanes = new Map<string, Lane>();
  let verified = 0;
  let containerSeconds = 0;

  const laneOf = (loaded: LoadedInstance): Lane => {
    const id = canonicalJson([loaded.environment, loaded.environmentDir]);
    let lane = lanes.get(id);
    if (!lane) {
      const groups = groupByEnvironment([loaded]);
      lane = {
        environments: new LazyEnvironments(groups, deps.harvest),
        pending: [],
        chain: Promise.resolve(),
      };
      lanes.set(id, lane);
    }
    return lane;
  };

  const flush = (lane: Lane): void => {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = undefined;
    const batch = lane.pending.splice(0, lane.pending.length);
    if (!batch.length) return;
    lane.chain = lane.chain.then(() => runBatch(lane, batch));
  };

  const runBatch = async (lane: Lane, batch: Pending[]): Promise<void> => {
    const settle = (item: Pending, outcome: VerifyOutcome) => {
      if (outcome.status === 'ok') deps.store?.put(item.key, outcome.verification);
      item.resolve(outcome);
    };
    try {
      if (deps.harvest.signal?.aborted) throw new Error('interrupted');
      const env = await lane.environments.resolved(0);
      const fresh = batch.filter((item) => item.envDigest === env.digest);
      for (const item of batch)
        if (item.envDigest !== env.digest)
          item.resolve({
            status: 'error',
            reason:
              'the environment changed since the oracle was harvested: harvest again before scoring',
          });
      if (!fresh.length) return;
      const backend = await lane.environments.backend();
      deps.log(
        `Verifying ${fresh.length} B1/B2 repl${fresh.length === 1 ? 'y' : 'ies'} in environment ` +
          `"${env.recipe.name}" (each against the buggy and the correct version)`,
      );
      const started = Date.now();
      const outcomes = await runVerifications(backend, env, fresh);
      const seconds = (Date.now() - started) / 1000;
      fresh.forEach((item, i) => settle(item, outcomes[i]!));
      verified += fresh.length;
      containerSeconds += seconds;
      deps.log(
        `Verified ${fresh.length} repl${fresh.length === 1 ? 'y' : 'ies'} in "${env.recipe.name}" ` +
          `in ${seconds.toFixed(1)} s (${(seconds / fresh.length).toFixed(2)} s each)`,
      );
    } catch (error) {
      const reason =
        error instanceof DockerUnavailableError
          ? `no engine to verify on: ${error.message}`
          : messageOf(error);
      for (const item of batch) item.resolve({ status: 'error', reason });
    }
  };

  return {
    verify(loaded: LoadedInstance, oracle: CachedOracle, reply: CometReply) {
      const envDigest = oracle.oracle.meta.environment_digest;
      const key = verificationKey(loaded, envDigest, deps.tracerDigest, reply);
      const cached = deps.store?.get(key);
      if (cached && cached.kind === loaded.instance.kind)
        return Promise.resolve<VerifyOutcome>({
          status: 'ok',
          verification: cached,
          cached: true,
        });
      return new Promise<VerifyOutcome>((resolve) => {
        const lane = laneOf(loaded);
        lane.pending.push({ key, loaded, reply, envDigest, resolve });
        if (lane.pending.length >= BATCH) flush(lane);
        else if (!lane.timer) lane.timer = setTimeout(() => flush(lane), BATCH_WAIT_MS);
      });
    },
    /** Every batch sent so far has finished (for logs and tests). */
    async settled() {
      for (const lane of lanes.values()) flush(lane);
      await Promise.all([...lanes.values()].map((l) => l.chain));
      if (verified)
        deps.log(
          `Verified ${verified} B1/B2 repl${verified === 1 ? 'y' : 'ies'} in ${containerSeconds.toFixed(1)} s of containers`,
        );
    },
  };
}
