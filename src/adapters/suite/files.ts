import { basename, join, relative } from 'node:path';
import type { SuiteReader } from '../../contracts/suite.js';
import { sha256 } from '../../util/hash.js';

/** Which files of a suite make an instance, and an instance's content hash (its oracle key's part). */

export const INSTANCE_FILE = 'instance.json';
/** Suffix of the instance files of a directory that holds several (a generated suite). */
export const INSTANCE_SUFFIX = '.instance.json';

/** An instance file: `instance.json`, or `<name>.instance.json` beside others sharing their test files. */
export const isInstanceFile = (name: string): boolean =>
  name === INSTANCE_FILE ||
  (name.endsWith(INSTANCE_SUFFIX) && name.length > INSTANCE_SUFFIX.length);
/** Hidden files and bytecode caches are no part of an instance. */
export const SKIPPED = (name: string) => name.startsWith('.') || name === '__pycache__';

function listFiles(reader: SuiteReader, dir: string, seen: Set<string>): string[] {
  const real = reader.resolve(dir);
  if (seen.has(real)) return [];
  seen.add(real);
  const files: string[] = [];
  for (const name of reader.names(dir)) {
    if (SKIPPED(name)) continue;
    const rel = join(dir, name);
    if (reader.kind(rel) === 'dir') files.push(...listFiles(reader, rel, seen));
    else files.push(rel);
  }
  return files;
}

/**
 * Content hash of an instance: the relative paths and bytes of its
 * directory's files, in sorted order — its own instance file, and none of
 * the other instance files beside it (adding a sibling changes no oracle key).
 */
export function hashDirectory(reader: SuiteReader, dir: string, own?: string): string {
  const files = listFiles(reader, dir, new Set())
    .filter((rel) => rel === own || !isInstanceFile(basename(rel)))
    .sort();
  return contentHash(files.map((rel) => [relative(dir, rel), reader.read(rel)]));
}

/** The hash of (relative path, bytes) pairs, sorted by path: what `hashDirectory` computes. */
export function contentHash(files: readonly (readonly [string, Buffer])[]): string {
  const parts: (string | Buffer)[] = [];
  for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    parts.push(path, bytes);
  return sha256(...parts);
}
