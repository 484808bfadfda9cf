import { parseStoredJson } from '../../util/json.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { readRegularFile } from './read-file.js';
import type { FailureStore, RememberedFailure } from '../../contracts/ports.js';

/** A failure file larger than this is not one (a status, a reason of at most a few KiB, a count). */
const MAX_FAILURE_BYTES = 64 * 1024;
const STATUSES: ReadonlySet<string> = new Set(['invalid', 'timeout', 'error']);

/**
 * Harvest failures by oracle key, one file per key: `<dir>/<key>.json`. Read only
 * when it is a regular file (a link is not followed) under a size cap, with a
 * status, a reason and a count (the directory may be restored from elsewhere);
 * anything else reads as none, and the instance is harvested as if never seen.
 */
export class DirFailures implements FailureStore {
  constructor(private readonly dir: string) {}

  get(key: string): RememberedFailure | undefined {
    try {
      const failure = parseStoredJson(
        readRegularFile(this.file(key), { maxBytes: MAX_FAILURE_BYTES, follow: false }),
      ) as Partial<RememberedFailure>;
      if (
        typeof failure.status !== 'string' ||
        !STATUSES.has(failure.status) ||
        typeof failure.reason !== 'string' ||
        !Number.isSafeInteger(failure.reused) ||
        failure.reused! < 0
      )
        return undefined;
      return { status: failure.status, reason: failure.reason, reused: failure.reused! };
    } catch {
      return undefined;
    }
  }

  put(key: string, failure: RememberedFailure): void {
    writeFileAtomic(this.file(key), JSON.stringify(failure, null, 2) + '\n');
  }

  delete(key: string): void {
    rmSync(this.file(key), { force: true });
  }

  private file(key: string): string {
    // Keys are hex digests (stages/harvest/key.ts): one is one file name.
    if (!/^[0-9a-f]{16,128}$/.test(key)) throw new Error(`not an oracle key: ${key}`);
    return join(this.dir, `${key}.json`);
  }
}
