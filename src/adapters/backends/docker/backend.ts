import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../../../contracts/environment.js';
import type { HarvestBackend, HarvestJob } from '../../../contracts/harvest-backend.js';
import type { SourceView } from '../../../contracts/source-view.js';
import type { ImageShelf } from '../../../contracts/ports.js';
import type { Cleanups } from '../../../util/cleanups.js';
import { MOUNT, TEST_UID_BASE, type SandboxLimits } from '../sandbox-policy.js';
import { DockerodeClient, type ContainerClient, type Dockerode } from './container-client.js';
import { dockerAt, ensureEngine } from './engine.js';
import { CHECKOUT, EnvironmentImages, type ImageRegistry } from './images.js';
import { runInSandbox, type SandboxDeps } from './sandbox-run.js';
import { exportSourceView } from './source-export.js';
import { dirEntries, tarOf } from './tar.js';

export interface DockerBackendOptions {
  /** Base image for every environment (else `python:<python>-slim`, or the recipe's own). */
  baseImage?: string;
  /** Host directory of the tracer (mounted read-only). */
  tracerDir: string;
  log: (message: string) => void;
  /** A dockerode client; defaults to `host`'s, else DOCKER_HOST's or the local socket's. */
  docker?: Dockerode;
  /** The engine to harvest on (the `docker-host` option), read as DOCKER_HOST would be. */
  host?: string;
  limits?: SandboxLimits;
  /** How often the engine is pinged while a container runs; two misses = lost. */
  livenessMs?: number;
  /** Where containers and temp dirs are registered for removal on an interrupt. */
  cleanups?: Cleanups;
  /** Where built images are kept for the next fresh machine (none: each machine builds its own). */
  shelf?: ImageShelf;
  /** A registry environment images are pulled from (and pushed to) before (after) a build. */
  registry?: ImageRegistry;
}

const VENV_PYTHON = '/opt/venv/bin/python';

/**
 * Harvest in containers: one image per effective environment (tagged by its
 * digest, built once from wheels resolved on the host), one container per
 * job, in the sandbox of sandbox-policy.ts.
 */
export class DockerBackend implements HarvestBackend {
  readonly name = 'docker';
  private readonly client: ContainerClient;
  private readonly images: EnvironmentImages;
  private readonly sandbox: SandboxDeps;

  constructor(private readonly options: DockerBackendOptions) {
    this.client = new DockerodeClient(
      options.docker ?? (options.host ? dockerAt(options.host) : undefined),
    );
    this.images = new EnvironmentImages(this.client, options);
    const { log, limits, livenessMs, cleanups } = options;
    this.sandbox = { client: this.client, log, limits, livenessMs, cleanups };
  }

  async ensureAvailable(): Promise<void> {
    await ensureEngine(this.client, this.options.log, this.options.host);
  }

  runtime(
    recipe: Environment,
    source: ResolvedSource | undefined,
  ): Promise<{ runtime: Runtime; source: ResolvedSource }> {
    return this.images.runtime(recipe, source);
  }

  async prepare(env: ResolvedEnvironment): Promise<void> {
    await this.images.ensure(env).catch(() => undefined);
  }

  async run(job: HarvestJob): Promise<string> {
    const env = job.environment;
    const image = await this.images.ensure(env);
    const python = env.recipe.image ? env.recipe.image.python : VENV_PYTHON;
    const checkout = checkoutOf(env.recipe);
    return runInSandbox(this.sandbox, {
      image,
      cmd: [python, `${MOUNT.tracer}/harvest.py`, `${MOUNT.plan}/plan.json`],
      files: filesOf(job, this.tracer()),
      // A fresh anonymous volume at the checkout's path holds a copy of the image's checkout,
      // writable by the driver (root) only, and is removed with the container.
      ...volumesOf(job, checkout),
      environment: env,
      timeoutMs: job.timeoutMs,
    });
  }

  /**
   * What the environment's tests import: a prebuilt image's repository, a git source's checkout,
   * else the venv's site-packages; read from the image, never from a container that ran.
   */
  async exportSource(env: ResolvedEnvironment): Promise<SourceView> {
    const image = await this.images.ensure(env);
    const origin =
      checkoutOf(env.recipe) ?? `/opt/venv/lib/python${env.recipe.python}/site-packages`;
    return exportSourceView(this.client, image, origin, this.options.cleanups);
  }

  /** The tracer's archive, read once (its files do not change during a run: they key every oracle). */
  private tracerTar?: Buffer;
  private tracer(): Buffer {
    return (this.tracerTar ??= tarOf(dirEntries(this.options.tracerDir, '.')));
  }
}

/**
 * Fresh anonymous volumes, each a copy of what the image holds at its path, writable by the driver
 * only and removed with the container: the checkout a SWE-Flux runner stages in, and the packages
 * B1/B2 install one version at a time (tracer/tracegate_tracer/comet/versions.py). A prebuilt image has no
 * venv of ours: its packages get none, and the tracer refuses to verify there.
 */
function volumesOf(job: HarvestJob, checkout: string | undefined): { volumes?: string[] } {
  const volumes = [
    ...(job.writableCheckout && checkout ? [checkout] : []),
    ...(job.privatePackages && job.environment.recipe.python && !job.environment.recipe.image
      ? job.privatePackages.map(
          (top) => `/opt/venv/lib/python${job.environment.recipe.python}/site-packages/${top}`,
        )
      : []),
  ];
  return volumes.length ? { volumes } : {};
}

/**
 * What the container is given, through the engine's API: the tracer, the plan (root-only: it
 * names every instance's mutant and every reply; the driver reads it as root) and each instance
 * directory, every file root's and read-only to the tests.
 */
function filesOf(job: HarvestJob, tracer: Buffer): { target: string; tar: Buffer }[] {
  const plan = Buffer.from(JSON.stringify(planFor(job)));
  return [
    { target: MOUNT.tracer, tar: tracer },
    {
      target: MOUNT.plan,
      tar: tarOf([
        { path: '.', mode: 0o755, kind: 'dir' },
        { path: './plan.json', mode: 0o600, kind: 'file', data: plan },
      ]),
    },
    {
      target: MOUNT.instances,
      tar: tarOf([
        { path: '.', mode: 0o755, kind: 'dir' },
        ...job.instanceDirs.flatMap((dir, i) => dirEntries(dir, `./${i}`)),
      ]),
    },
  ];
}

/** Where the environment's checkout is in its image (git and image sources). */
function checkoutOf(recipe: Environment): string | undefined {
  return recipe.image ? recipe.image.workdir : recipe.git ? CHECKOUT : undefined;
}

/** The job's plan, with the paths its container sees. */
function planFor(job: HarvestJob) {
  return job.plan({
    instanceDir: (i) => `${MOUNT.instances}/${i}`,
    checkout: checkoutOf(job.environment.recipe),
    workDir: MOUNT.work,
    isolation: { uid_base: TEST_UID_BASE },
  });
}
