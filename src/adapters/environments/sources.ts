import { execFile } from 'node:child_process';
import { git } from '../git/exec.js';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Environment, ResolvedSource, ResolvedWheel } from '../../contracts/environment.js';
import { HarvestError } from '../../errors.js';
import type { CacheLayout } from '../stores/layout.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import { downloadWheels } from './wheels.js';
import { readRegularFile } from '../stores/read-file.js';
import { writeFileAtomic } from '../stores/atomic.js';
import type { SuiteReader } from '../../contracts/suite.js';
import type { EnvironmentSources } from '../../contracts/environment.js';

const run = promisify(execFile);

const fileSha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const isPathRef = (ref: string) => ref.endsWith('.whl') && !ref.includes('==');
const MAX_WHEEL_BYTES = 512 * 1024 * 1024;

/** Git with repository-controlled hooks and commands switched off, as root over any owner. */
const GIT = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'safe.directory=*',
];
const gitEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: '/nonexistent',
};
const REMOTE = /^(?:https?|ssh|git):\/\/|^[\w.-]+@[\w.-]+:/i;

/**
 * `git.repo: "self"`: the git repository the suite itself lives in (the
 * nearest directory above the suite root holding `.git`). How a team's
 * private suite, kept in its own repository, names that repository's code.
 */
export const SELF_REPO = 'self';

/** The repository holding `root` (root itself, or the nearest ancestor with a `.git`). */
export function enclosingRepository(root: string, environment: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir)
      throw new HarvestError(
        `Environment "${environment}": git.repo "self" names the repository holding the suite, but ${root} ` +
          'is in none (keep the suite inside the repository, or give git.repo a URL).',
      );
  }
}

export class HostSources implements EnvironmentSources {
  constructor(
    private readonly layout: CacheLayout,
    private readonly reader: SuiteReader,
    private readonly log: (message: string) => void,
    private readonly python = 'python3',
  ) {}

  async resolve(recipe: Environment, environmentDir: string): Promise<ResolvedSource | undefined> {
    if (recipe.image) return undefined;
    const wheels = await this.wheels(recipe, environmentDir);
    if (!recipe.git) return { kind: 'packages', wheels };
    const { repo, commit, checkout } = await this.checkout(recipe);
    return { kind: 'git', repo, commit, wheels, checkout };
  }

  /**
   * Index wheels are downloaded once per recipe into wheels/<recipe>/ and
   * pinned by a lock of their sha256 (re-downloaded when a file no longer
   * matches it); wheel files named by path are read through the suite reader
   * and hashed on every run, so a rebuilt wheel always gets a new digest.
   */
  private async wheels(recipe: Environment, environmentDir: string): Promise<ResolvedWheel[]> {
    const python = recipe.python!;
    const pinned = recipe.packages.filter((p) => !isPathRef(p));
    const files = recipe.packages.filter(isPathRef);
    const dir = join(
      this.layout.wheels,
      sha256('wheels/v1', canonicalJson({ python, pinned, arch: process.arch })).slice(0, 24),
    );
    const lockFile = join(dir, 'lock.json');
    const sharedLock = join(this.layout.locks, `${basename(dir)}.json`);
    let index = readLock(lockFile, dir);
    // A lock restored with the shared cache names the wheels without their files: enough for the
    // environment's digest (so a run whose oracles are all cached downloads nothing); the files
    // are fetched, and checked against it, only when an image or a virtualenv is built.
    const restored = index ? undefined : readSharedLock(sharedLock, dir);
    if (restored) return [...restored, ...(await this.localWheels(files, dir, environmentDir))];
    if (!index) {
      rmSync(dir, { recursive: true, force: true });
      const tmp = `${dir}.${process.pid}.tmp`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      await downloadWheels({ name: recipe.name, python, packages: pinned }, tmp, this.python);
      const names = readdirSync(tmp)
        .filter((n) => n.endsWith('.whl'))
        .sort();
      writeFileSync(
        join(tmp, 'lock.json'),
        JSON.stringify(names.map((name) => ({ name, sha256: fileSha(join(tmp, name)) }))),
      );
      renameSync(tmp, dir);
      index = readLock(lockFile, dir)!;
    }
    if (pinned.length) {
      mkdirSync(this.layout.locks, { recursive: true });
      writeFileAtomic(
        sharedLock,
        JSON.stringify(index.map(({ name, sha256 }) => ({ name, sha256 }))),
      );
    }
    return [...index, ...(await this.localWheels(files, dir, environmentDir))];
  }

  /** Wheel files named by path: read through the suite reader and hashed on every run. */
  private async localWheels(
    files: string[],
    dir: string,
    environmentDir: string,
  ): Promise<ResolvedWheel[]> {
    const local: ResolvedWheel[] = [];
    if (files.length) {
      const localDir = join(dir, 'local', `${process.pid}`);
      mkdirSync(localDir, { recursive: true });
      for (const ref of files) {
        const bytes = this.reader.read(join(environmentDir, ref), MAX_WHEEL_BYTES);
        const name = basename(ref);
        const path = join(localDir, name);
        writeFileSync(path, bytes);
        local.push({ name, sha256: createHash('sha256').update(bytes).digest('hex'), path });
      }
    }
    return local;
  }

  private async checkout(
    recipe: Environment,
  ): Promise<{ repo: string; commit: string; checkout: string }> {
    const source = recipe.git!;
    let repoDir: string;
    if (REMOTE.test(source.repo)) {
      repoDir = join(this.layout.git, `${sha256(source.repo).slice(0, 16)}.git`);
      if (!existsSync(repoDir)) {
        this.log(`Cloning ${source.repo} for environment "${recipe.name}"`);
        mkdirSync(this.layout.git, { recursive: true });
        await this.git(['clone', '--bare', '--quiet', source.repo, repoDir], recipe);
      } else if (!(await this.revParse(repoDir, source.commit))) {
        await this.git(['-C', repoDir, 'fetch', '--quiet', 'origin', '+refs/*:refs/*'], recipe);
      }
    } else if (source.repo === SELF_REPO) {
      repoDir = enclosingRepository(this.reader.root, recipe.name);
    } else {
      // A local repository must be part of the suite: a suite names no host path.
      try {
        repoDir = this.reader.resolve(source.repo.replace(/^file:\/\//, ''));
      } catch (error) {
        throw new HarvestError(
          `Environment "${recipe.name}": git.repo ${source.repo} is not a repository inside the suite ` +
            `(${(error as Error).message.split('.')[0]}). A local repository must lie inside the suite ` +
            'directory; elsewhere, give its URL (https://, ssh://, git@…).',
        );
      }
    }
    const commit = await this.revParse(repoDir, source.commit);
    if (!commit) {
      throw new HarvestError(
        `Environment "${recipe.name}": commit "${source.commit}" is not in ${source.repo}. ` +
          'Check the sha (or fetch it into the repository).',
      );
    }
    const checkout = join(this.layout.checkouts, commit);
    if (!existsSync(join(checkout, '.tracegate-ready'))) {
      const tmp = `${checkout}.${process.pid}.tmp`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(join(tmp, 'tree'), { recursive: true });
      await this.git(
        ['-C', repoDir, 'archive', '--format=tar', '-o', join(tmp, 'tree.tar'), commit],
        recipe,
      );
      await run('tar', ['-x', '-f', join(tmp, 'tree.tar'), '-C', join(tmp, 'tree')]);
      rmSync(join(tmp, 'tree.tar'));
      writeFileSync(join(tmp, '.tracegate-ready'), commit);
      rmSync(checkout, { recursive: true, force: true });
      renameSync(tmp, checkout);
    }
    return { repo: source.repo, commit, checkout: join(checkout, 'tree') };
  }

  private async revParse(repoDir: string, ref: string): Promise<string | undefined> {
    try {
      const { code, stdout } = await git(
        [...GIT, '-C', repoDir, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`],
        { env: gitEnv },
      );
      const sha = code === 0 ? stdout : '';
      return /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
    } catch {
      return undefined;
    }
  }

  private async git(args: string[], recipe: Environment): Promise<void> {
    let failure: string | undefined;
    try {
      const { code, stderr } = await git([...GIT, ...args], {
        env: gitEnv,
        maxBuffer: 64 * 1024 * 1024,
      });
      if (code !== 0) failure = stderr.split('\n').at(-1) || `exit status ${code}`;
    } catch (error) {
      failure = (error as Error).message;
    }
    if (failure !== undefined)
      throw new HarvestError(
        `Environment "${recipe.name}": git ${args.find((a) => !a.startsWith('-') && a !== recipe.git?.repo) ?? ''} failed ` +
          `(${failure}). Check the repository URL or path and the commit.`,
      );
  }
}

function readLock(file: string, dir: string): ResolvedWheel[] | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as { name: string; sha256: string }[];
    const wheels = lock.map((w) => ({ ...w, path: join(dir, w.name) }));
    // A file changed under the lock is re-resolved, never trusted.
    if (wheels.every((w) => existsSync(w.path) && fileSha(w.path) === w.sha256)) return wheels;
  } catch {
    // an unreadable lock is re-resolved
  }
  return undefined;
}

/** A lock restored with the shared cache (names and sha256 only), its files expected in `dir`. */
function readSharedLock(file: string, dir: string): ResolvedWheel[] | undefined {
  try {
    const lock = JSON.parse(
      readRegularFile(file, { maxBytes: 1024 * 1024, follow: false }),
    ) as unknown;
    if (
      !Array.isArray(lock) ||
      !lock.length ||
      !lock.every(
        (w: { name?: unknown; sha256?: unknown }) =>
          typeof w?.name === 'string' &&
          /^[\w.+-]+\.whl$/.test(w.name) &&
          typeof w.sha256 === 'string' &&
          /^[0-9a-f]{64}$/.test(w.sha256),
      )
    )
      return undefined;
    return (lock as { name: string; sha256: string }[]).map(({ name, sha256 }) => ({
      name,
      sha256,
      path: join(dir, name),
    }));
  } catch {
    return undefined; // none, or unreadable: resolved by downloading
  }
}

/**
 * The files of resolved wheels, present and as their lock says: wheels resolved from a restored
 * lock are downloaded now (the recipe's pins, as when resolving) and each checked against it.
 */
export async function ensureWheelFiles(
  recipe: Environment,
  wheels: ResolvedWheel[],
  python = 'python3',
): Promise<void> {
  const missing = wheels.filter((w) => !existsSync(w.path) || fileSha(w.path) !== w.sha256);
  if (!missing.length) return;
  const dir = dirname(missing[0]!.path);
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(`${dir}.fetch-`); // two builds of one recipe fetch side by side
  try {
    const pinned = recipe.packages.filter((p) => !isPathRef(p));
    await downloadWheels(
      { name: recipe.name, python: recipe.python!, packages: pinned },
      tmp,
      python,
    );
    mkdirSync(dir, { recursive: true });
    for (const wheel of missing) {
      const got = join(tmp, wheel.name);
      if (!existsSync(got) || fileSha(got) !== wheel.sha256)
        throw new HarvestError(
          `Environment "${recipe.name}": the index no longer serves ${wheel.name} as the cached lock ` +
            `pins it (sha256 ${wheel.sha256.slice(0, 12)}…). Delete ${join(dirname(dir), '..', 'locks')} ` +
            'from the cache (or the cache) to resolve the environment afresh.',
        );
      renameSync(got, wheel.path);
    }
    // The directory's own lock again: the next resolution here reads the files, not the shared lock.
    const own = wheels.filter((w) => dirname(w.path) === dir);
    writeFileAtomic(
      join(dir, 'lock.json'),
      JSON.stringify(own.map(({ name, sha256 }) => ({ name, sha256 }))),
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Copies resolved wheels into a build context or a local install directory. */
export function copyWheels(wheels: ResolvedWheel[], dest: string): void {
  mkdirSync(dest, { recursive: true });
  for (const wheel of wheels) copyFileSync(wheel.path, join(dest, wheel.name));
}
