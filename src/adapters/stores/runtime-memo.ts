import { parseStoredJson } from '../../util/json.js';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { readRegularFile } from './read-file.js';
import type { RememberedRuntime, RuntimeMemo } from '../../contracts/ports.js';

/** A memo file larger than this is not one (a runtime and a source are a few KiB). */
const MAX_MEMO_BYTES = 1 << 20;

/**
 * What each environment last resolved to, one file per key: `<dir>/<key>.json`.
 * Read only when it is a regular file (a link is not followed) under a size cap
 * (the cache directory may be restored from elsewhere); anything that is not a memo reads as none, and the environment is
 * resolved on the engine as if never seen.
 */
export class DirRuntimeMemo implements RuntimeMemo {
  constructor(private readonly dir: string) {}

  get(key: string): RememberedRuntime | undefined {
    try {
      const text = readRegularFile(join(this.dir, `${key}.json`), {
        maxBytes: MAX_MEMO_BYTES,
        follow: false,
      });
      const memo = parseStoredJson(text) as Partial<RememberedRuntime>;
      const backend = (memo.runtime as { backend?: unknown } | undefined)?.backend;
      const kind = (memo.source as { kind?: unknown } | undefined)?.kind;
      if ((backend !== 'docker' && backend !== 'local') || typeof kind !== 'string')
        return undefined;
      return memo as RememberedRuntime;
    } catch {
      return undefined;
    }
  }

  put(key: string, value: RememberedRuntime): void {
    writeFileAtomic(join(this.dir, `${key}.json`), JSON.stringify(value, null, 2) + '\n');
  }
}
