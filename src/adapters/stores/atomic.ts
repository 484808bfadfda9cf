import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { TracegateError, ExitCode } from '../../errors.js';

/** A write failed (disk full, read-only, no permission); names the path and the fix. */
export class StoreWriteError extends TracegateError {
  readonly exitCode = ExitCode.Infrastructure;
  constructor(
    readonly path: string,
    cause: NodeJS.ErrnoException,
  ) {
    const why: Record<string, string> = {
      ENOSPC: 'the disk is full: free space or point the directory elsewhere',
      EDQUOT: 'the disk quota is exhausted: free space or point the directory elsewhere',
      EROFS: 'the file system is read-only: point the directory at a writable place',
      EACCES: 'permission denied: make it writable or point the directory elsewhere',
      EPERM: 'permission denied: make it writable or point the directory elsewhere',
      ENOENT: 'a directory cannot be created there: point the directory elsewhere',
    };
    super(`Could not write ${path}: ${why[cause.code ?? ''] ?? cause.message}.`);
    this.name = 'StoreWriteError';
  }
}

/**
 * The real reason of a failed write: a recursive mkdir on a read-only file
 * system reports ENOENT, so the nearest existing ancestor is asked too.
 */
function diagnose(path: string, error: NodeJS.ErrnoException): NodeJS.ErrnoException {
  if (error.code !== 'ENOENT') return error;
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (!existsSync(dir)) continue;
    try {
      accessSync(dir, constants.W_OK);
    } catch (probe) {
      return probe as NodeJS.ErrnoException;
    }
    break;
  }
  return error;
}

/** Wraps a file-system write so its failure names the path (never a raw ENOSPC). */
export function writing<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof StoreWriteError) throw error;
    throw new StoreWriteError(path, diagnose(path, error as NodeJS.ErrnoException));
  }
}

let counter = 0;

/** Write-then-rename: a reader sees the old file or the new one, never half of one. */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.${++counter}.tmp`;
  writing(path, () => {
    try {
      makeDirs(dirname(path));
      writeFileSync(tmp, data);
      renameSync(tmp, path);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  });
}

/**
 * Checks before any work that `dir` (created if missing) takes a write: a
 * full, read-only or forbidden directory fails here with StoreWriteError
 * naming it and the fix, not later as a tool's message (pip's, ENOENT) with
 * the work done so far unstorable.
 */
export function assertWritable(dir: string): void {
  const probe = join(dir, `.tracegate-write-probe-${process.pid}`);
  writing(dir, () => {
    makeDirs(dir);
    try {
      writeFileSync(probe, Buffer.alloc(64 * 1024)); // room for at least an oracle or two
    } finally {
      rmSync(probe, { force: true });
    }
  });
}

/**
 * `mkdir -p`, one component at a time from the nearest existing ancestor.
 * Node's recursive mkdirSync never returns for a path under /proc (each
 * ENOENT sends it back up to an ancestor that exists): this fails instead.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at);
  for (const each of missing.reverse()) {
    try {
      mkdirSync(each);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
