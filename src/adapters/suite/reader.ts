import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SuiteEntry, SuiteReader } from '../../contracts/suite.js';
import { InstanceError } from '../../errors.js';
import { readRegularBytes, UnreadableFileError } from '../stores/read-file.js';

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
    try {
      // resolve() kept the path inside the suite; a hard link is refused (its bytes may be a host file's).
      return readRegularBytes(real, { maxBytes, follow: false, singleLink: true });
    } catch (error) {
      if (error instanceof UnreadableFileError)
        throw new SuiteFileError(this.display(rel), error.why);
      throw error;
    }
  }
}

/** `rel` relative to the reader's root, for paths the reader returned. */
export function suiteRelative(reader: SuiteReader, real: string): string {
  return relative(reader.root, real);
}
