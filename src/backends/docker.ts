import Docker from 'dockerode';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../contracts/environment.js';
import { DockerUnavailableError, HarvestError } from '../errors.js';
import { copyWheels } from '../environments/sources.js';
import type { HarvestBackend, HarvestJob } from '../harvest/backend.js';
import type { Cleanups } from '../util/cleanups.js';
import { defaultBaseImage, imageExists, obtainBaseImage, tryPull } from './base-image.js';
import { BoundedText } from './bounded.js';
import { dockerfile, wheelLayers } from './dockerfile.js';
import {
  DEFAULT_LIMITS,
  MOUNT,
  sandboxContainer,
  sandboxHostConfig,
  TEST_UID_BASE,
  type SandboxLimits,
} from './sandbox-policy.js';

export interface DockerBackendOptions {
  /** Base image for every environment (else `python:<python>-slim`, or the recipe's own). */
  baseImage?: string;
  /** Host directory of the tracer (mounted read-only). */
  tracerDir: string;
  log: (message: string) => void;
  /** A dockerode client; defaults to DOCKER_HOST or the local socket. */
  docker?: Docker;
  limits?: SandboxLimits;
  /** How often the engine is pinged while a container runs; two misses = lost. */
  livenessMs?: number;
  /** Where containers and temp dirs are registered for removal on an interrupt. */
  cleanups?: Cleanups;
}

/** The most a job's stdout (its result lines) may hold. */
const MAX_STDOUT_BYTES = 256 * 1024 * 1024;
const VENV_PYTHON = '/opt/venv/bin/python';
const CHECKOUT = '/testbed';

/**
 * Harvest in containers: one image per effective environment (tagged by its
 * digest, built once from wheels resolved on the host), one container per
 * job, in the sandbox of sandbox-policy.ts.
 */
export class DockerBackend implements HarvestBackend {
  readonly name = 'docker';
  private readonly docker: Docker;
  private readonly bases = new Map<string, Promise<{ image: string; note: string }>>();

  constructor(private readonly options: DockerBackendOptions) {
    this.docker = options.docker ?? new Docker();
  }

  async ensureAvailable(): Promise<void> {
    try {
      await withTimeout(this.docker.ping(), 10_000, 'ping timed out');
    } catch (error) {
      throw new DockerUnavailableError((error as Error).message);
    }
    await this.sweep();
  }

  /**
   * Removes containers a killed tracegate process left behind (SIGKILL,
   * a lost engine): those labelled with this host whose process is gone.
   */
  private async sweep(): Promise<void> {
    const left = await this.docker
      .listContainers({ all: true, filters: { label: [`tracegate.host=${hostname()}`] } })
      .catch(() => []);
    let removed = 0;
    for (const info of left) {
      const pid = Number(info.Labels?.['tracegate.pid']);
      if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
      await this.docker
        .getContainer(info.Id)
        .remove({ force: true, v: true })
        .then(() => removed++)
        .catch(() => {});
    }
    if (removed) this.options.log(`Removed ${removed} container(s) left by an interrupted run`);
  }

  async runtime(
    recipe: Environment,
    source: ResolvedSource | undefined,
  ): Promise<{ runtime: Runtime; source: ResolvedSource }> {
    if (recipe.image) {
      const ref = recipe.image.ref;
      if (!(await imageExists(this.docker, ref))) {
        const pulled = await tryPull(this.docker, ref);
        if (!pulled.ok)
          throw new HarvestError(
            `Environment "${recipe.name}": image "${ref}" is not present and could not be pulled (${pulled.reason}). ` +
              "Pull or load it (docker load), or change the environment's image.ref.",
          );
      }
      const { Id } = await this.docker.getImage(ref).inspect();
      return {
        source: { kind: 'image', ref, imageId: Id },
        runtime: {
          backend: 'docker',
          image: ref,
          note: `prebuilt image ${ref} (${Id.slice(0, 19)})`,
        },
      };
    }
    const python = recipe.python!;
    const requested = recipe.base_image ?? this.options.baseImage ?? defaultBaseImage(python);
    const isDefault = !recipe.base_image && !this.options.baseImage;
    let base = this.bases.get(requested);
    if (!base) {
      base = obtainBaseImage(this.docker, requested, python, isDefault, this.options.log);
      this.bases.set(requested, base);
    }
    const { image, note } = await base;
    return { source: source!, runtime: { backend: 'docker', image, note } };
  }

  async prepare(env: ResolvedEnvironment): Promise<void> {
    await this.ensureImage(env).catch(() => undefined);
  }

  async run(job: HarvestJob): Promise<string> {
    const env = job.environment;
    const image = await this.ensureImage(env);
    const planDir = mkdtempSync(join(tmpdir(), 'tracegate-plan-'));
    const forget = this.options.cleanups?.add(() =>
      rmSync(planDir, { recursive: true, force: true }),
    );
    chmodSync(planDir, 0o755);
    try {
      const binds = [`${this.options.tracerDir}:${MOUNT.tracer}:ro`, `${planDir}:${MOUNT.plan}:ro`];
      job.instanceDirs.forEach((dir, i) => binds.push(`${dir}:${MOUNT.instances}/${i}:ro`));
      const plan = job.plan({
        instanceDir: (i) => `${MOUNT.instances}/${i}`,
        checkout: env.recipe.image
          ? env.recipe.image.workdir
          : env.recipe.git
            ? CHECKOUT
            : undefined,
        workDir: MOUNT.work,
        isolation: { uid_base: TEST_UID_BASE },
      });
      writeFileSync(join(planDir, 'plan.json'), JSON.stringify(plan));
      const python = env.recipe.image ? env.recipe.image.python : VENV_PYTHON;
      return await this.runContainer(
        image,
        [python, `${MOUNT.tracer}/harvest.py`, `${MOUNT.plan}/plan.json`],
        binds,
        job,
      );
    } finally {
      rmSync(planDir, { recursive: true, force: true });
      forget?.();
    }
  }

  private async runContainer(
    image: string,
    cmd: string[],
    binds: string[],
    job: HarvestJob,
  ): Promise<string> {
    const env = job.environment;
    const cleanups = this.options.cleanups;
    if (cleanups?.closed) throw new HarvestError('interrupted before the container was created');
    let forget: (() => void) | undefined;
    // Tracked, and its removal registered before anyone else sees it: a create in
    // flight when an interrupt lands is waited for and its container removed.
    const creating = engine(() =>
      this.docker.createContainer(
        sandboxContainer(
          image,
          cmd,
          sandboxHostConfig(binds, this.options.limits ?? DEFAULT_LIMITS),
          {
            'tracegate.job': env.digest.slice(0, 16),
            'tracegate.host': hostname(),
            'tracegate.pid': String(process.pid),
          },
        ),
      ),
    ).then((created) => {
      forget = cleanups?.add(() => created.remove({ force: true, v: true }).catch(() => {}));
      return created;
    });
    const container = await (cleanups ? cleanups.track(creating) : creating);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const results = new BoundedText(MAX_STDOUT_BYTES);
    const logs: string[] = [];
    let partial = '';
    stdout.on('data', (chunk: Buffer) => results.push(chunk));
    stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter(Boolean)) {
        if (logs.length < 10_000) this.options.log(`  [${env.recipe.name}] ${line.slice(0, 2000)}`);
        logs.push(line.slice(0, 2000));
        if (logs.length > 50) logs.shift();
      }
    });
    let stopLiveness = () => {};
    let jobTimer: NodeJS.Timeout | undefined;
    let attached: NodeJS.ReadWriteStream | undefined;
    try {
      const stream = await engine(() =>
        container.attach({ stream: true, stdout: true, stderr: true }),
      );
      attached = stream;
      container.modem.demuxStream(stream, stdout, stderr);
      const ended = new Promise<void>((resolve) => stream.on('end', resolve));
      await engine(() => container.start());
      const liveness = this.watchEngine();
      stopLiveness = liveness.stop;
      // One timer for the whole wait, cleared whichever way the race ends (a pending
      // timer would keep the process alive after a lost engine).
      const timeout = new Promise<never>((_, reject) => {
        jobTimer = setTimeout(
          () =>
            reject(
              new HarvestError(`harvest container exceeded ${Math.round(job.timeoutMs / 1000)}s`),
            ),
          job.timeoutMs,
        );
      });
      const result = (await Promise.race([
        engine(() => container.wait()),
        timeout,
        liveness.lost,
      ])) as { StatusCode: number };
      // The attach stream ends after the wait; give it a moment to deliver the tail.
      await Promise.race([ended, new Promise((r) => setTimeout(r, 2000).unref())]);
      if (result.StatusCode !== 0) {
        throw new HarvestError(
          `Tracer exited with code ${result.StatusCode} in environment "${env.recipe.name}": ` +
            (logs.slice(-5).join(' | ') || 'no output'),
        );
      }
      if (results.overflowed)
        throw new HarvestError(
          `The tracer's results in environment "${env.recipe.name}" exceeded ${MAX_STDOUT_BYTES} bytes`,
        );
      return results.text();
    } finally {
      stopLiveness();
      clearTimeout(jobTimer);
      (attached as { destroy?: () => void } | undefined)?.destroy?.();
      await container.kill().catch(() => {});
      await container.remove({ force: true, v: true }).catch(() => {});
      forget?.();
    }
  }

  /** Rejects within ~2 intervals of the engine going away (a wait would hang until its timeout). */
  private watchEngine(): { lost: Promise<never>; stop: () => void } {
    const every = this.options.livenessMs ?? 2000;
    let misses = 0;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const lost = new Promise<never>((_, reject) => {
      const tick = () => {
        if (stopped) return;
        withTimeout(this.docker.ping(), every, 'no answer').then(
          () => {
            misses = 0;
            timer = setTimeout(tick, every);
          },
          (error: Error) => {
            if (stopped) return;
            if (++misses >= 2)
              reject(
                new DockerUnavailableError(
                  `lost the connection to the Docker engine while a harvest container ran: ${error.message}`,
                ),
              );
            else timer = setTimeout(tick, every);
          },
        );
      };
      timer = setTimeout(tick, every);
    });
    lost.catch(() => {});
    return {
      lost,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private readonly images = new Map<string, Promise<string>>();

  /** The environment's image, built once however many jobs ask for it at the same time. */
  private ensureImage(env: ResolvedEnvironment): Promise<string> {
    let image = this.images.get(env.digest);
    if (!image) {
      image = this.buildImage(env);
      this.images.set(env.digest, image);
      image.catch(() => this.images.delete(env.digest));
    }
    return image;
  }

  /** Builds `tracegate-env:<digest>` unless it exists (or uses a prebuilt image); never touches the network. */
  private async buildImage(env: ResolvedEnvironment): Promise<string> {
    if (env.source.kind === 'image') return env.source.imageId;
    const tag = `tracegate-env:${env.digest.slice(0, 16)}`;
    if (await imageExists(this.docker, tag)) return tag;
    const base = env.runtime.backend === 'docker' ? env.runtime.image : '';
    this.options.log(`Building ${tag} for environment "${env.recipe.name}" on ${base}`);
    const context = mkdtempSync(join(tmpdir(), 'tracegate-build-'));
    try {
      const { runner, own } = wheelLayers(env.source.wheels);
      copyWheels(own, join(context, 'wheels'));
      mkdirSync(join(context, 'wheels'), { recursive: true });
      const src = ['Dockerfile', 'wheels'];
      if (runner.length) {
        copyWheels(runner, join(context, 'runner-wheels'));
        src.push('runner-wheels');
      }
      if (env.source.kind === 'git') {
        // The exported tree of the commit, copied as it is (symlinks stay links).
        await copyTree(env.source.checkout, join(context, 'checkout'));
        src.push('checkout');
      }
      writeFileSync(join(context, 'Dockerfile'), dockerfile(base, env, CHECKOUT));
      const stream = await this.docker.buildImage(
        { context, src },
        { t: tag, networkmode: 'none', rm: true, forcerm: true },
      );
      await new Promise<void>((resolve, reject) => {
        this.docker.modem.followProgress(
          stream,
          (
            error: Error | null,
            output: { error?: string; errorDetail?: { message?: string } }[],
          ) => {
            const failed = output?.find((o) => o.error);
            if (error || failed) {
              reject(
                new HarvestError(
                  `Building the image for environment "${env.recipe.name}" failed: ${error?.message ?? failed?.errorDetail?.message ?? failed?.error}`,
                ),
              );
            } else resolve();
          },
        );
      });
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
    return tag;
  }
}

/** True while a process with this pid exists on this host. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const ENGINE_GONE = /ECONNREFUSED|ENOENT|EPIPE|ECONNRESET|socket hang up|connect E/i;

/** An engine call; a lost connection becomes DockerUnavailableError, not a raw socket error. */
async function engine<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (ENGINE_GONE.test(message) || ENGINE_GONE.test(String((error as { code?: string }).code)))
      throw new DockerUnavailableError(`lost the connection to the Docker engine (${message})`);
    throw error;
  }
}

async function copyTree(from: string, to: string): Promise<void> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  mkdirSync(to, { recursive: true });
  await promisify(execFile)('cp', ['-a', `${from}/.`, to]);
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HarvestError(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
