import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { join } from 'node:path';
import { familyOf } from '../../families/registry.js';
import { traced } from '../../families/traced/index.js';
import { isInstanceFile } from '../../adapters/suite/files.js';
import type { Drafted } from '../../stages/screen/candidates.js';

/**
 * Whether an instance file is another generator's: the world-model kinds (scripts/generate-world.py)
 * and the bug kinds (scripts/generate-comet.py) are written beside this generator's, and kept by it.
 */
function anotherGenerators(file: string): boolean {
  try {
    const kind = (JSON.parse(readFileSync(file, 'utf8')) as { kind?: unknown }).kind;
    return typeof kind === 'string' && familyOf(kind).generator !== traced.generator;
  } catch {
    return false;
  }
}

/** Writes `bytes` unless the file already holds them (regenerating leaves unchanged files untouched). */
export function writeIfChanged(file: string, bytes: Buffer): void {
  if (existsSync(file) && readFileSync(file).equals(bytes)) return;
  writeFileSync(file, bytes);
}

/**
 * One test file's directory of a generated suite: its kept instances written (unchanged files left
 * untouched), what an earlier generation left that is no longer kept removed, and what other
 * generators wrote beside it (world-model and bug-kind instances) kept; a directory left with
 * nothing is removed.
 */
export function writeSuiteDir(dir: string, kept: readonly Drafted[]): void {
  const names = new Set(kept.map((k) => k.fileName));
  const others = readdirSync(dir).filter((name) => isInstanceFile(name) && !names.has(name));
  const theirs = others.filter((name) => anotherGenerators(join(dir, name)));
  if (!kept.length && !theirs.length) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const name of others) if (!theirs.includes(name)) rmSync(join(dir, name));
  for (const k of kept) writeIfChanged(join(dir, k.fileName), k.bytes);
}

/** The tracer's bound for a test file it reads (tracer/tracegate_tracer/prompt/testfiles.py). */
const MAX_TEST_FILE_BYTES = 256 * 1024;

/** The test files of `--tests DIR` a generation scouts and copies: checked, in name order. */
export function testFiles(dir: string): string[] {
  if (!existsSync(dir)) throw new UsageError(`--tests ${dir}: no such directory`);
  const files = readdirSync(dir)
    .filter((name) => /^test_.*\.py$/.test(name))
    .sort();
  if (!files.length)
    throw new UsageError(`--tests ${dir} holds no test files (test_*.py): nothing to scout.`);
  for (const name of files) {
    // Copied into the suite and shown to models: a link out of the directory is never followed.
    const stat = lstatSync(join(dir, name));
    if (!stat.isFile() || stat.size > MAX_TEST_FILE_BYTES)
      throw new UsageError(
        `--tests ${dir}: ${name} is ${stat.isSymbolicLink() ? 'a symbolic link' : stat.isFile() ? `${stat.size} bytes` : 'not a regular file'}; ` +
          `test files must be regular files of at most ${MAX_TEST_FILE_BYTES} bytes (copy the file itself).`,
      );
  }
  if (existsSync(join(dir, 'conftest.py')))
    throw new UsageError(
      `--tests ${dir} has a conftest.py: each test file must be self-contained (it is copied alone, with its questions).`,
    );
  return files;
}
