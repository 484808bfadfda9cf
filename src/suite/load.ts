import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { InstanceError, UsageError } from '../errors.js';
import { sha256 } from '../util/hash.js';
import { TRACED_KINDS } from './kinds.js';
import {
  describeIssues,
  environmentSchema,
  instanceSchema,
  type Environment,
  type Instance,
} from './schema.js';

/** An instance as loaded from disk: validated, with its environment and content hash. */
export interface LoadedInstance {
  instance: Instance;
  /** Absolute directory holding instance.json and its test files. */
  dir: string;
  /** sha256 over every file of the instance directory (paths + bytes). */
  contentHash: string;
  environment: Environment;
}

const INSTANCE_FILE = 'instance.json';

/**
 * Loads every instance under `root` (a suite directory or the instances root).
 * Environments come from the nearest `environments/` folder at or above `root`.
 * Throws InstanceError naming the file and field on the first malformed file.
 */
export function loadInstances(root: string): LoadedInstance[] {
  const abs = resolve(root);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new UsageError(`--instances ${root}: no such directory`);
  }
  const environments = loadEnvironments(findEnvironmentsDir(abs));
  const loaded: LoadedInstance[] = [];
  const seen = new Map<string, string>();
  for (const file of findInstanceFiles(abs)) {
    const instance = parseInstanceFile(file);
    const dir = dirname(file);
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
    for (const test of instance.tests) {
      const testFile = test.split('::')[0] ?? '';
      if (!existsSync(join(dir, testFile))) {
        throw new InstanceError(file, `tests: "${test}" names ${testFile}, which is not in ${dir}`);
      }
    }
    loaded.push({ instance, dir, contentHash: hashDirectory(dir), environment });
  }
  return loaded.sort((a, b) => (a.instance.id < b.instance.id ? -1 : 1));
}

export function parseInstanceFile(file: string): Instance {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InstanceError(file, `not valid JSON (${(error as Error).message})`);
  }
  const parsed = instanceSchema.safeParse(raw);
  if (!parsed.success) throw new InstanceError(file, describeIssues(parsed.error));
  if (!TRACED_KINDS.has(parsed.data.kind)) {
    throw new InstanceError(
      file,
      `kind: ${parsed.data.kind} has no tracer query yet (supported: ${[...TRACED_KINDS].join(', ')})`,
    );
  }
  return parsed.data;
}

function findEnvironmentsDir(start: string): string | undefined {
  for (let dir = start, i = 0; i < 4; dir = dirname(dir), i++) {
    const candidate = join(dir, 'environments');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function loadEnvironments(dir: string | undefined): Map<string, Environment> {
  const result = new Map<string, Environment>();
  if (!dir) return result;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new InstanceError(file, `not valid JSON (${(error as Error).message})`);
    }
    const parsed = environmentSchema.safeParse(raw);
    if (!parsed.success) throw new InstanceError(file, describeIssues(parsed.error));
    result.set(parsed.data.name, parsed.data);
  }
  return result;
}

function findInstanceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'environments' || entry.name === '__pycache__') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findInstanceFiles(path));
    else if (entry.name === INSTANCE_FILE) found.push(path);
  }
  return found.sort();
}

function listFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '__pycache__' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else files.push(path);
  }
  return files;
}

/** Content hash of a directory: relative paths and bytes, in sorted order. */
export function hashDirectory(dir: string): string {
  const parts: (string | Buffer)[] = [];
  for (const file of listFiles(dir).sort()) {
    parts.push(relative(dir, file), readFileSync(file));
  }
  return sha256(...parts);
}
