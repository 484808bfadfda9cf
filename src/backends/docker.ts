import Docker from 'dockerode';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DockerUnavailableError, HarvestError } from '../errors.js';
import type { Environment } from '../instances/schema.js';
import type { HarvestBackend, HarvestJob } from './backend.js';
import { downloadWheels } from './wheels.js';

export interface DockerBackendOptions {
  /** Image the environment images build FROM (needs python3 + venv). */
  baseImage: string;
  /** Host directory of the tracer (mounted read-only). */
  tracerDir: string;
  log: (message: string) => void;
  /** A dockerode client; defaults to DOCKER_HOST or the local socket. */
  docker?: Docker;
  memoryBytes?: number;
}

const MOUNT = '/tg';
const VENV_PYTHON = '/opt/venv/bin/python';
/** Unprivileged uid/gid the tests run as ("nobody"). */
const USER = '65534:65534';

/**
 * Harvest in containers: one image per environment recipe (tagged by its
 * digest, built once from locally downloaded wheels), one container per job,
 * no network, no capabilities, non-root, bounded memory/pids/time.
 */
export class DockerBackend implements HarvestBackend {
  readonly name = 'docker';
  started = 0;
  private readonly docker: Docker;

  constructor(private readonly options: DockerBackendOptions) {
    this.docker = options.docker ?? new Docker();
  }

  async ensureAvailable(): Promise<void> {
    try {
      await withTimeout(this.docker.ping(), 10_000, 'ping timed out');
    } catch (error) {
      throw new DockerUnavailableError((error as Error).message);
    }
  }

  async run(job: HarvestJob): Promise<void> {
    const image = await this.ensureImage(job.environment, job.envDigest);
    const binds = [
      `${this.options.tracerDir}:${MOUNT}/tracer:ro`,
      `${job.hostOutDir}:${MOUNT}/out:rw`,
    ];
    for (const [id, dir] of job.instanceDirs) binds.push(`${dir}:${MOUNT}/instances/${id}:ro`);
    const plan = job.plan({
      outDir: `${MOUNT}/out`,
      instanceDir: (id) => `${MOUNT}/instances/${id}`,
    });
    writeFileSync(join(job.hostOutDir, 'plan.json'), JSON.stringify(plan, null, 2));

    const container = await this.docker.createContainer({
      Image: image,
      Cmd: [VENV_PYTHON, `${MOUNT}/tracer/harvest.py`, `${MOUNT}/out/plan.json`],
      User: USER,
      WorkingDir: '/tmp',
      Env: ['PYTHONDONTWRITEBYTECODE=1', 'HOME=/tmp', 'PYTHONHASHSEED=0'],
      Tty: false,
      Labels: { 'tracegate.job': job.envDigest.slice(0, 16) },
      NetworkDisabled: true,
      HostConfig: {
        Binds: binds,
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
        Tmpfs: { '/tmp': 'rw,exec,size=512m' },
        Memory: this.options.memoryBytes ?? 2 * 1024 ** 3,
        PidsLimit: 512,
      },
    });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const logs: string[] = [];
    stderr.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        logs.push(line);
        this.options.log(`  [${job.environment.name}] ${line}`);
      }
    });
    stdout.resume();
    try {
      const stream = await container.attach({ stream: true, stdout: true, stderr: true });
      container.modem.demuxStream(stream, stdout, stderr);
      await container.start();
      this.started++;
      const result = (await withTimeout(
        container.wait(),
        job.timeoutMs,
        `harvest container exceeded ${Math.round(job.timeoutMs / 1000)}s`,
      )) as { StatusCode: number };
      if (result.StatusCode !== 0) {
        throw new HarvestError(
          `Tracer exited with code ${result.StatusCode} in environment "${job.environment.name}": ` +
            (logs.slice(-5).join(' | ') || 'no output'),
        );
      }
    } finally {
      await container.kill().catch(() => {});
      await container.remove({ force: true, v: true }).catch(() => {});
    }
  }

  /** Builds `tracegate-env:<digest>` unless it exists; the build never touches the network. */
  private async ensureImage(env: Environment, digest: string): Promise<string> {
    const tag = `tracegate-env:${digest.slice(0, 16)}`;
    if (await this.imageExists(tag)) return tag;
    const base = env.base_image ?? this.options.baseImage;
    if (!(await this.imageExists(base))) {
      throw new HarvestError(
        `Base image "${base}" is not present in the Docker engine. Build it (scripts/ensure-docker.sh ` +
          'builds tracegate/base:bookworm with debootstrap) or pass --base-image (e.g. python:3.11-slim).',
      );
    }
    this.options.log(`Building ${tag} for environment "${env.name}" on ${base}`);
    const context = mkdtempSync(join(tmpdir(), 'tracegate-build-'));
    try {
      mkdirSync(join(context, 'wheels'));
      await downloadWheels(env, join(context, 'wheels'));
      writeFileSync(join(context, 'Dockerfile'), dockerfile(base, env, digest));
      const stream = await this.docker.buildImage(
        { context, src: ['Dockerfile', 'wheels'] },
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
                  `Building the image for environment "${env.name}" failed: ${error?.message ?? failed?.errorDetail?.message ?? failed?.error}`,
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

  private async imageExists(name: string): Promise<boolean> {
    try {
      await this.docker.getImage(name).inspect();
      return true;
    } catch {
      return false;
    }
  }
}

function dockerfile(base: string, env: Environment, digest: string): string {
  const packages = env.packages.map((p) => `'${p}'`).join(' ');
  return [
    `FROM ${base}`,
    `LABEL tracegate.environment="${env.name}" tracegate.digest="${digest}"`,
    'COPY wheels /tmp/wheels',
    'RUN python3 -m venv /opt/venv \\',
    `  && /opt/venv/bin/pip install --quiet --no-index --no-cache-dir --disable-pip-version-check --find-links /tmp/wheels ${packages} \\`,
    '  && rm -rf /tmp/wheels',
    '',
  ].join('\n');
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
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
