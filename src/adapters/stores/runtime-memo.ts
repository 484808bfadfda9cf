import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import type { RememberedRuntime, RuntimeMemo } from '../../contracts/ports.js';

/** A memo file larger than this is not one (a runtime and a source are a few KiB). */
const MAX_MEMO_BYTES = 1 << 20;

/**
 * What each environment last resolved to, one file per key: `<dir>/<key>.json`.
 * Read with O_NOFOLLOW and a size cap (the cache directory may be restored from
 * elsewhere); anything that is not a memo reads as none, and the environment is
 * resolved on the engine as if never seen.
 */
export class DirRuntimeMemo implements RuntimeMemo {
  constructor(private readonly dir: string) {}

  get(key: string): RememberedRuntime | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(join(this.dir, `${key}.json`), constants.O_RDONLY | constants.O_NOFOLLOW);
      const size = fstatSync(fd).size;
      if (!fstatSync(fd).isFile() || size > MAX_MEMO_BYTES) return undefined;
      const buffer = Buffer.alloc(size);
      readSync(fd, buffer, 0, size, 0);
      const memo = JSON.parse(buffer.toString('utf8')) as Partial<RememberedRuntime>;
      const backend = (memo.runtime as { backend?: unknown } | undefined)?.backend;
      const kind = (memo.source as { kind?: unknown } | undefined)?.kind;
      if ((backend !== 'docker' && backend !== 'local') || typeof kind !== 'string')
        return undefined;
      return memo as RememberedRuntime;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  put(key: string, value: RememberedRuntime): void {
    writeFileAtomic(join(this.dir, `${key}.json`), JSON.stringify(value, null, 2) + '\n');
  }
}
