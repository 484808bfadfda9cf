import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SuiteEntry, SuiteReader } from '../../contracts/suite.js';
import { InstanceError } from '../../errors.js';

/** Bytes any one suite file may have; an instance directory is text. */
export const MAX_SUITE_FILE_BYTES = 4 * 1024 * 1024;

/** A suite file broke a reading rule; names the file, the rule and the fix. */
export class SuiteFileError extends InstanceError {
  constructor(file: string, rule: string) {
    super(file, `${rule}. Suite files must be regular files inside the suite directory.`);
    this.name = 'SuiteFileError';
  }
}

export class FsSuiteReader implements SuiteReader {
  readonly root: string;

  constructor(root: string) {
    this.root = realpathSync(root);
  }

  private display(rel: string): string {
    return join(this.root, rel);
  }

  resolve(rel: string): string {
    if (isAbsolute(rel)) throw new SuiteFileError(rel, 'an absolute path');
    let real: string;
    try {
      real = realpathSync(join(this.root, rel));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new SuiteFileError(
        this.display(rel),
        code === 'ENOENT' ? 'no such file (or a dangling symlink)' : `unreadable (${code})`,
      );
    }
    if (real !== this.root && !real.startsWith(this.root + sep))
      throw new SuiteFileError(this.display(rel), `resolves to ${real}, outside the suite`);
    return real;
  }

  names(rel: string): string[] {
    const dir = this.resolve(rel);
    if (!statSync(dir).isDirectory())
      throw new SuiteFileError(this.display(rel), 'not a directory');
    return readdirSync(dir).sort();
  }

  kind(rel: string): 'file' | 'dir' {
    const stat = statSync(this.resolve(rel));
    if (stat.isDirectory()) return 'dir';
    if (stat.isFile()) return 'file';
    throw new SuiteFileError(this.display(rel), 'a device, fifo or socket');
  }

  list(rel: string): SuiteEntry[] {
    return this.names(rel).map((name) => ({ name, kind: this.kind(join(rel, name)) }));
  }

  read(rel: string, maxBytes = MAX_SUITE_FILE_BYTES): Buffer {
    const real = this.resolve(rel);
    // Non-blocking: a fifo is refused below, never waited on.
    const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = fstatSync(fd);
      if (stat.isDirectory())
        throw new SuiteFileError(this.display(rel), 'a directory, not a file');
      if (!stat.isFile()) throw new SuiteFileError(this.display(rel), 'a device, fifo or socket');
      // A file with another name elsewhere may be a host file linked in (its real path is inside the
      // suite, so resolve() cannot tell): the suite's files are its own.
      if (stat.nlink > 1)
        throw new SuiteFileError(
          this.display(rel),
          `a file with ${stat.nlink} hard links (another name of it may be outside the suite: ` +
            'copy it into the suite instead of linking it)',
        );
      if (stat.size > maxBytes)
        throw new SuiteFileError(
          this.display(rel),
          `${stat.size} bytes, over the ${maxBytes}-byte limit`,
        );
      // Read at most maxBytes + 1 whatever stat said: a file may grow while read.
      const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
      let length = 0;
      for (let n = 1; n > 0 && length < buffer.length; length += n)
        n = readSync(fd, buffer, length, buffer.length - length, null);
      if (length > maxBytes)
        throw new SuiteFileError(this.display(rel), `over the ${maxBytes}-byte limit`);
      return buffer.subarray(0, length);
    } finally {
      closeSync(fd);
    }
  }
}

/** `rel` relative to the reader's root, for paths the reader returned. */
export function suiteRelative(reader: SuiteReader, real: string): string {
  return relative(reader.root, real);
}
