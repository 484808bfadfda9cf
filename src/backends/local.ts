import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HarvestError } from '../errors.js';
import type { Environment } from '../instances/schema.js';
import type { HarvestBackend, HarvestJob } from './backend.js';
import { downloadWheels } from './wheels.js';

const run = promisify(execFile);

export interface LocalBackendOptions {
  tracerDir: string;
  /** Where virtualenvs are kept, one per environment digest. */
  venvRoot: string;
  log: (message: string) => void;
  python?: string;
}

/**
 * Harvest without Docker: a virtualenv per environment on this host. No
 * isolation — the demo's fallback where no engine is reachable, said loudly.
 */
export class LocalBackend implements HarvestBackend {
  readonly name = 'local';
  started = 0;

  constructor(private readonly options: LocalBackendOptions) {}

  async ensureAvailable(): Promise<void> {
    try {
      await run(this.options.python ?? 'python3', ['-c', 'import venv, ensurepip']);
    } catch (error) {
      throw new HarvestError(
        `The local backend needs python3 with venv and ensurepip on this host (${(error as Error).message}).`,
      );
    }
  }

  async run(job: HarvestJob): Promise<void> {
    const python = await this.ensureVenv(job.environment, job.envDigest);
    const plan = job.plan({
      outDir: job.hostOutDir,
      instanceDir: (id) => job.instanceDirs.get(id)!,
    });
    const planFile = join(job.hostOutDir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan, null, 2));
    this.started++;
    try {
      const { stderr } = await run(python, [join(this.options.tracerDir, 'harvest.py'), planFile], {
        timeout: job.timeoutMs,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONHASHSEED: '0' },
        maxBuffer: 64 * 1024 * 1024,
      });
      stderr
        .split('\n')
        .filter(Boolean)
        .forEach((line) => this.options.log(`  [${job.environment.name}] ${line}`));
    } catch (error) {
      throw new HarvestError(
        `Tracer failed in local environment "${job.environment.name}": ${(error as Error).message}`,
      );
    }
  }

  private async ensureVenv(env: Environment, digest: string): Promise<string> {
    const dir = join(this.options.venvRoot, digest.slice(0, 16));
    const python = join(dir, 'bin', 'python');
    if (existsSync(join(dir, '.tracegate-ready'))) return python;
    this.options.log(`Creating virtualenv for environment "${env.name}" in ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(this.options.venvRoot, { recursive: true });
    const wheels = mkdtempSync(join(this.options.venvRoot, 'wheels-'));
    try {
      await downloadWheels(env, wheels, this.options.python);
      await run(this.options.python ?? 'python3', ['-m', 'venv', dir]);
      await run(python, [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--no-index',
        '--disable-pip-version-check',
        '--find-links',
        wheels,
        ...env.packages,
      ]);
      writeFileSync(join(dir, '.tracegate-ready'), digest);
    } catch (error) {
      throw new HarvestError(
        `Could not create the virtualenv for "${env.name}": ${(error as Error).message}`,
      );
    } finally {
      rmSync(wheels, { recursive: true, force: true });
    }
    return python;
  }
}
