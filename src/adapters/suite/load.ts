import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { environmentSchema, type Environment } from '../../contracts/environment.js';
import { describeIssues, instanceSchema, type Instance } from '../../contracts/instance.js';
import { InstanceError, UsageError } from '../../errors.js';
import type { LoadedInstance, RejectedFile, Suite, SuiteReader } from '../../contracts/suite.js';
import { FsSuiteReader } from './reader.js';
import { queryOptionProblem } from './query-options.js';
import { hashDirectory, INSTANCE_FILE, isInstanceFile, SKIPPED } from './files.js';

const ENVIRONMENTS = 'environments';
/** How many levels above --instances an environments/ folder is looked for. */
const ENVIRONMENT_LEVELS = 4;

/**
 * Loads every instance under `dir` (a suite directory or the instances root).
 * Environments come from the nearest `environments/` folder at or above `dir`;
 * the folder holding it is the suite's root, and every file is read through
 * one confined reader rooted there. Throws InstanceError naming the file and
 * field on the first malformed file.
 */
export function loadSuite(dir: string): Suite {
  const abs = resolve(dir);
  if (existsSync(abs) && !statSync(abs).isDirectory())
    throw new UsageError(
      `--instances ${dir} is a file: give the suite directory (the folder holding the instance files, with environments/ at or above it)`,
    );
  if (!existsSync(abs)) throw new UsageError(`--instances ${dir}: no such directory`);
  const root = suiteRoot(abs);
  const reader = new FsSuiteReader(root);
  const start = reader.resolve(relativeTo(reader.root, abs));
  const rejected: RejectedFile[] = [];
  const environments = loadEnvironments(reader, rejected);
  const loaded: LoadedInstance[] = [];
  const seen = new Map<string, string>();
  for (const rel of findInstanceFiles(reader, relativeTo(reader.root, start), rejected)) {
    const file = join(reader.root, rel);
    let id: string | undefined;
    try {
      const instance = parseInstance(reader, rel);
      id = instance.id;
      loaded.push(checkInstance(reader, rel, instance, environments, seen));
    } catch (error) {
      if (!(error instanceof InstanceError)) throw error;
      id ??= declaredId(reader, rel);
      rejected.push({ file, ...(id ? { id } : {}), reason: error.message });
    }
  }
  return {
    reader,
    instances: loaded.sort((a, b) => (a.instance.id < b.instance.id ? -1 : 1)),
    rejected: withoutRepeats(rejected),
  };
}

function checkInstance(
  reader: SuiteReader,
  rel: string,
  instance: Instance,
  environments: Map<string, { recipe: Environment }>,
  seen: Map<string, string>,
): LoadedInstance {
  const file = join(reader.root, rel);
  {
    const previous = seen.get(instance.id);
    if (previous) throw new InstanceError(file, `id "${instance.id}" is also used by ${previous}`);
    seen.set(instance.id, file);
    const environment = environments.get(instance.environment);
    if (!environment) {
      throw new InstanceError(
        file,
        `environment: "${instance.environment}" is not defined (known: ${[...environments.keys()].join(', ') || 'none'})`,
      );
    }
    const instanceDir = dirname(rel);
    if (instance.cwd === 'instance') {
      for (const test of instance.tests) {
        const testFile = test.split('::')[0] ?? '';
        try {
          reader.read(join(instanceDir, testFile));
        } catch (error) {
          throw new InstanceError(
            file,
            `tests: "${test}" names ${testFile}, which is not a readable file of the instance (${(error as Error).message})`,
          );
        }
      }
    } else if (!environment.recipe.git && !environment.recipe.image) {
      throw new InstanceError(
        file,
        `cwd: "checkout" needs an environment with a git or image source ("${instance.environment}" has neither)`,
      );
    }
    const queryProblem = queryOptionProblem(instance);
    if (queryProblem) throw new InstanceError(file, queryProblem);
    return {
      instance,
      dir: reader.resolve(instanceDir),
      file: rel,
      contentHash: hashDirectory(reader, instanceDir, rel),
      environment: environment.recipe,
      environmentDir: ENVIRONMENTS,
    };
  }
}

function relativeTo(root: string, path: string): string {
  const rel = path.slice(root.length).replace(/^\/+/, '');
  return path.startsWith(root) ? rel : path;
}

/** The nearest directory at or above `start` holding environments/, else `start` itself. */
function suiteRoot(start: string): string {
  for (let dir = start, i = 0; i <= ENVIRONMENT_LEVELS; dir = dirname(dir), i++) {
    if (existsSync(join(dir, ENVIRONMENTS))) return dir;
  }
  return start;
}

function parseJson(reader: SuiteReader, rel: string): unknown {
  const file = join(reader.root, rel);
  try {
    return JSON.parse(reader.read(rel).toString('utf8'));
  } catch (error) {
    if (error instanceof InstanceError) throw error;
    throw new InstanceError(file, `not valid JSON (${(error as Error).message})`);
  }
}

/**
 * A bad file inside an instance directory is seen twice: by the walk, and by
 * the check of its instance (which names it). Keep only the instance's report.
 */
function withoutRepeats(rejected: RejectedFile[]): RejectedFile[] {
  return rejected.filter(
    (r) =>
      isInstanceFile(basename(r.file)) ||
      !rejected.some((other) => other !== r && other.reason.includes(`${r.file}:`)),
  );
}

/** The id a rejected instance file declares, if it declares one that is a valid id. */
function declaredId(reader: SuiteReader, rel: string): string | undefined {
  try {
    const id = (JSON.parse(reader.read(rel).toString('utf8')) as { id?: unknown }).id;
    return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function parseInstance(reader: SuiteReader, rel: string): Instance {
  const parsed = instanceSchema.safeParse(parseJson(reader, rel));
  if (!parsed.success)
    throw new InstanceError(join(reader.root, rel), describeIssues(parsed.error));
  return parsed.data;
}

/** Parses one instance file (for tools and tests that hold a single file). */
export function parseInstanceFile(file: string): Instance {
  const reader = new FsSuiteReader(dirname(file));
  return parseInstance(reader, file.slice(reader.root.length + 1) || INSTANCE_FILE);
}

function loadEnvironments(
  reader: SuiteReader,
  rejected: RejectedFile[],
): Map<string, { recipe: Environment }> {
  const result = new Map<string, { recipe: Environment }>();
  if (!existsSync(join(reader.root, ENVIRONMENTS))) return result;
  for (const name of reader.names(ENVIRONMENTS)) {
    if (!name.endsWith('.json')) continue;
    const rel = join(ENVIRONMENTS, name);
    try {
      const parsed = environmentSchema.safeParse(parseJson(reader, rel));
      if (!parsed.success)
        throw new InstanceError(join(reader.root, rel), describeIssues(parsed.error));
      result.set(parsed.data.name, { recipe: parsed.data });
    } catch (error) {
      if (!(error instanceof InstanceError)) throw error;
      rejected.push({ file: join(reader.root, rel), reason: error.message });
    }
  }
  return result;
}

/** instance.json files under `dir`; an entry that breaks a reading rule is rejected, the walk goes on. */
function findInstanceFiles(
  reader: SuiteReader,
  dir: string,
  rejected: RejectedFile[],
  seen = new Set<string>(),
): string[] {
  const real = reader.resolve(dir);
  if (seen.has(real)) return []; // a symlink loop inside the suite
  seen.add(real);
  const found: string[] = [];
  for (const name of reader.names(dir)) {
    if (SKIPPED(name) || name === ENVIRONMENTS) continue;
    const rel = join(dir, name);
    let kind: 'file' | 'dir';
    try {
      kind = reader.kind(rel);
    } catch (error) {
      if (!(error instanceof InstanceError)) throw error;
      rejected.push({ file: join(reader.root, rel), reason: error.message });
      continue;
    }
    if (kind === 'dir') found.push(...findInstanceFiles(reader, rel, rejected, seen));
    else if (isInstanceFile(name)) found.push(rel);
  }
  return found.sort();
}
