import { isRoutineTracerLine } from '../../util/tracer-log.js';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type {
  Environment,
  ResolvedEnvironment,
  ResolvedSource,
  Runtime,
} from '../../contracts/environment.js';
import { HarvestError } from '../../errors.js';
import { copyWheels, ensureWheelFiles } from '../environments/sources.js';
import {
  withPartialOutput,
  type HarvestBackend,
  type HarvestJob,
} from '../../contracts/harvest-backend.js';
import type { Cleanups } from '../../util/cleanups.js';
import { BoundedText } from './bounded.js';
import { ownedTempDir, sweepTempDirs } from './temp-dirs.js';

const run = promisify(execFile);
const MAX_STDOUT_BYTES = 256 * 1024 * 1024;

export interface LocalBackendOptions {
  tracerDir: string;
  /** Where virtualenvs are kept, one per environment digest. */
  venvRoot: string;
  log: (message: string) => void;
  python?: string;
  /** Where the tracer process and temp dirs are registered for removal on an interrupt. */
  cleanups?: Cleanups;
}

/**
 * Harvest without Docker: a virtualenv per environment on this host. No
 * isolation — the demo's fallback where no engine is reachable, said loudly.
 * The tracer gets a scrubbed environment: nothing of this process's own
 * (API keys, tokens) reaches the tests.
 */
export class LocalBackend implements HarvestBackend {
  readonly name = 'local';
  private host?: Promise<{ python: string; version: string }>;

  constructor(private readonly options: LocalBackendOptions) {}

  private get python(): string {
    return this.options.python ?? 'python3';
  }

  async ensureAvailable(): Promise<void> {
    await this.interpreter();
    const dirs = sweepTempDirs();
    if (dirs) this.options.log(`Removed ${dirs} temp director(ies) left by an interrupted run`);
  }

  private interpreter(): Promise<{ python: string; version: string }> {
    this.host ??= run(this.python, [
      '-c',
      'import sys, venv, ensurepip; print(sys.executable); print(sys.version.split()[0])',
    ]).then(
      ({ stdout }) => {
        const [python, version] = stdout.trim().split('\n');
        return { python: python!, version: version! };
      },
      (error: Error) => {
        throw new HarvestError(
          `The local backend needs python3 with venv and ensurepip on this host (${error.message}).`,
        );
      },
    );
    return this.host;
  }

  async runtime(
    recipe: Environment,
    source: ResolvedSource | undefined,
  ): Promise<{ runtime: Runtime; source: ResolvedSource }> {
    if (recipe.image || !source)
      throw new HarvestError(
        `Environment "${recipe.name}" is a prebuilt image: it needs a Docker engine (--backend docker).`,
      );
    const host = await this.interpreter();
    const minor = host.version.split('.').slice(0, 2).join('.');
    if (minor !== recipe.python)
      throw new HarvestError(
        `Environment "${recipe.name}" wants Python ${recipe.python}; this host's ${this.python} is ${host.version}. ` +
          'Harvest it with Docker (--backend docker), or point the local backend at a matching interpreter.',
      );
    return {
      source,
      runtime: {
        backend: 'local',
        python: host.python,
        version: host.version,
        note: `local virtualenv on ${host.python} ${host.version} (no container isolation)`,
      },
    };
  }

  async run(job: HarvestJob): Promise<string> {
    const env = job.environment;
    const python = await this.ensureVenv(env);
    const work = ownedTempDir('local');
    const forget = this.options.cleanups?.add(() => rmSync(work, { recursive: true, force: true }));
    try {
      const checkout = env.source.kind === 'git' ? env.source.checkout : undefined;
      const plan = job.plan({
        instanceDir: (i) => job.instanceDirs[i]!,
        checkout,
        workDir: join(work, 'work'),
        isolation: null,
      });
      const planFile = join(work, 'plan.json');
      writeFileSync(planFile, JSON.stringify(plan));
      return await this.spawnTracer(python, planFile, job, join(work, 'home'));
    } finally {
      rmSync(work, { recursive: true, force: true });
      forget?.();
    }
  }

  private spawnTracer(
    python: string,
    planFile: string,
    job: HarvestJob,
    home: string,
  ): Promise<string> {
    mkdirSync(home, { recursive: true });
    const child = spawn(python, [join(this.options.tracerDir, 'harvest.py'), planFile], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: home,
        LANG: 'C.UTF-8',
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONHASHSEED: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const forget = this.options.cleanups?.add(killGroup);
    child.on('close', () => forget?.());
    const out = new BoundedText(MAX_STDOUT_BYTES);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter((l) => l && !isRoutineTracerLine(l)))
        this.options.log(`  [${job.environment.recipe.name}] ${line.slice(0, 2000)}`);
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        killGroup();
        reject(
          withPartialOutput(
            new HarvestError(`local tracer exceeded ${Math.round(job.timeoutMs / 1000)}s`),
            out.text(),
          ),
        );
      }, job.timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new HarvestError(`Could not start the local tracer: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve(out.text());
        else
          reject(
            withPartialOutput(
              new HarvestError(
                `Tracer failed in local environment "${job.environment.recipe.name}" (exit ${code ?? signal}).`,
              ),
              out.text(), // the groups that finished before it was killed or crashed
            ),
          );
      });
    });
  }

  private readonly venvs = new Map<string, Promise<string>>();

  /** The environment's virtualenv, created once however many jobs ask for it at the same time. */
  private ensureVenv(env: ResolvedEnvironment): Promise<string> {
    let venv = this.venvs.get(env.digest);
    if (!venv) {
      venv = this.createVenv(env);
      this.venvs.set(env.digest, venv);
      venv.catch(() => this.venvs.delete(env.digest));
    }
    return venv;
  }

  private async createVenv(env: ResolvedEnvironment): Promise<string> {
    const dir = join(this.options.venvRoot, env.digest.slice(0, 16));
    const python = join(dir, 'bin', 'python');
    if (existsSync(join(dir, '.tracegate-ready'))) return python;
    this.options.log(`Creating virtualenv for environment "${env.recipe.name}" in ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(this.options.venvRoot, { recursive: true });
    const wheels = mkdtempSync(join(this.options.venvRoot, 'wheels-'));
    try {
      const source = env.source;
      if (source.kind === 'image') throw new HarvestError('image environments need Docker');
      await ensureWheelFiles(env.recipe, source.wheels, this.python);
      copyWheels(source.wheels, wheels);
      await run(this.python, ['-m', 'venv', dir]);
      const pip = [
        python,
        '-m',
        'pip',
        'install',
        '--quiet',
        '--no-index',
        '--disable-pip-version-check',
        '--find-links',
        wheels,
      ];
      if (source.wheels.length)
        await run(pip[0]!, [...pip.slice(1), ...source.wheels.map((w) => join(wheels, w.name))]);
      if (source.kind === 'git') {
        const git = env.recipe.git!;
        if (git.install === 'path') {
          const { stdout } = await run(python, [
            '-c',
            'import sysconfig; print(sysconfig.get_paths()["purelib"])',
          ]);
          writeFileSync(
            join(stdout.trim(), 'tracegate-checkout.pth'),
            git.paths.map((p) => join(source.checkout, p)).join('\n') + '\n',
          );
        } else {
          await run(pip[0]!, [
            ...pip.slice(1),
            '--no-build-isolation',
            ...(git.install === 'editable' ? ['-e'] : []),
            source.checkout,
          ]);
        }
        if (git.command) await run('sh', ['-c', git.command], { cwd: source.checkout });
      }
      writeFileSync(join(dir, '.tracegate-ready'), env.digest);
    } catch (error) {
      throw new HarvestError(
        `Could not create the virtualenv for "${env.recipe.name}": ${(error as Error).message}`,
      );
    } finally {
      rmSync(wheels, { recursive: true, force: true });
    }
    return python;
  }
}
