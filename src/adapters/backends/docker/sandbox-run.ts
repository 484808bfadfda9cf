/**
 * One harvest job's container: created in the sandbox, its output collected
 * (results from stdout, log lines from stderr), waited for under the job's
 * timeout and the engine's watch, then killed and removed whatever happened.
 */
import { isRoutineTracerLine } from '../../../util/tracer-log.js';
import { PassThrough } from 'node:stream';
import type { ResolvedEnvironment } from '../../../contracts/environment.js';
import { withPartialOutput } from '../../../contracts/harvest-backend.js';
import { HarvestError } from '../../../errors.js';
import type { Cleanups } from '../../../util/cleanups.js';
import { BoundedText } from '../bounded.js';
import {
  DEFAULT_LIMITS,
  sandboxContainer,
  sandboxHostConfig,
  type SandboxLimits,
} from '../sandbox-policy.js';
import type { AttachedStreams, ContainerClient, ContainerHandle } from './container-client.js';
import { ownerLabels, watchEngine } from './engine.js';

/** The most a job's stdout (its result lines) may hold. */
const MAX_STDOUT_BYTES = 256 * 1024 * 1024;

export interface SandboxDeps {
  client: ContainerClient;
  log: (message: string) => void;
  limits?: SandboxLimits;
  /** How often the engine is pinged while the container runs; two misses = lost. */
  livenessMs?: number;
  /** Where the container is registered for removal on an interrupt. */
  cleanups?: Cleanups;
}

export interface SandboxJob {
  image: string;
  cmd: string[];
  /**
   * What the container is given, each a fresh anonymous volume at `target` filled with `tar`
   * through the engine's API before the container starts (never a bind of this machine's paths:
   * a remote engine cannot see them).
   */
  files: { target: string; tar: Buffer }[];
  /** Paths given a fresh anonymous volume (a copy of the image's content there), removed with the container. */
  volumes?: string[];
  environment: ResolvedEnvironment;
  timeoutMs: number;
}

/** Runs the job's container to its end; its stdout, or a HarvestError saying why not. */
export async function runInSandbox(deps: SandboxDeps, job: SandboxJob): Promise<string> {
  const name = job.environment.recipe.name;
  const { container, forget } = await createTracked(deps, job);
  const output = collectOutput(name, deps.log);
  let stopLiveness = () => {};
  let attached: AttachedStreams | undefined;
  try {
    for (const { target, tar } of job.files) await container.putArchive(tar, target);
    attached = await container.attach(output.stdout, output.stderr);
    await container.start();
    const liveness = watchEngine(deps.client, deps.livenessMs ?? 2000);
    stopLiveness = liveness.stop;
    const status = await container.wait(
      job.timeoutMs,
      () => new HarvestError(`harvest container exceeded ${Math.round(job.timeoutMs / 1000)}s`),
      liveness.lost,
    );
    // The attach stream ends after the wait; give it a moment to deliver the tail.
    await Promise.race([attached.ended, new Promise((r) => setTimeout(r, 2000).unref())]);
    return output.results(status);
  } catch (error) {
    // Killed, crashed or cut off from its engine: the groups that finished wrote their results.
    throw withPartialOutput(error, output.written());
  } finally {
    stopLiveness();
    attached?.detach();
    await container.kill();
    await container.remove();
    forget?.();
  }
}

/** Creates the container with its removal registered before anyone else sees it. */
async function createTracked(
  deps: SandboxDeps,
  job: SandboxJob,
): Promise<{ container: ContainerHandle; forget?: () => void }> {
  const cleanups = deps.cleanups;
  if (cleanups?.closed) throw new HarvestError('interrupted before the container was created');
  let forget: (() => void) | undefined;
  // Tracked: a create in flight when an interrupt lands is waited for and its container removed.
  const creating = deps.client
    .create(
      sandboxContainer(
        job.image,
        job.cmd,
        sandboxHostConfig([], deps.limits ?? DEFAULT_LIMITS, [
          ...job.files.map((f) => f.target),
          ...(job.volumes ?? []),
        ]),
        { 'tracegate.job': job.environment.digest.slice(0, 16), ...ownerLabels() },
      ),
    )
    .then((created) => {
      forget = cleanups?.add(() => created.remove());
      return created;
    });
  const container = await (cleanups ? cleanups.track(creating) : creating);
  return { container, forget };
}

/** The container's two streams: stdout kept (bounded) as the results, stderr logged line by line. */
function collectOutput(name: string, log: (message: string) => void) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const results = new BoundedText(MAX_STDOUT_BYTES);
  const logs: string[] = [];
  let partial = '';
  stdout.on('data', (chunk: Buffer) => results.push(chunk));
  stderr.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.filter((l) => l && !isRoutineTracerLine(l))) {
      if (logs.length < 10_000) log(`  [${name}] ${line.slice(0, 2000)}`);
      logs.push(line.slice(0, 2000));
      if (logs.length > 50) logs.shift();
    }
  });
  return {
    stdout,
    stderr,
    /** What the tracer wrote to stdout so far (bounded). */
    written: (): string => results.text(),
    /** The results, once the container exited with `status`; a HarvestError if it failed. */
    results(status: number): string {
      if (status !== 0) {
        throw new HarvestError(
          `Tracer exited with code ${status} in environment "${name}": ` +
            (logs.slice(-5).join(' | ') || 'no output'),
        );
      }
      if (results.overflowed)
        throw new HarvestError(
          `The tracer's results in environment "${name}" exceeded ${MAX_STDOUT_BYTES} bytes`,
        );
      return results.text();
    },
  };
}
