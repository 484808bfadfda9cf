import { parseStoredJson } from '../../util/json.js';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { readRegularFile } from './read-file.js';
import { verificationSchema, type Verification } from '../../contracts/comet.js';
import type { VerificationStore } from '../../contracts/ports.js';

/** A verification larger than this is not one (two runs' outcomes, each capped by the tracer). */
const MAX_VERIFICATION_BYTES = 256 * 1024;

/**
 * B1/B2 verifications by key, one file per key: `<dir>/<k[0:2]>/<k>.json`.
 * Read only when it is a regular file (a link is not followed) under a size
 * cap that the verification schema accepts (the directory may be restored
 * from elsewhere): anything else reads as none, and the reply is run again.
 * Each file names the key it was written for (the instance, environment,
 * tracer and reply it verified): a verification copied over another reply's
 * file is not that reply's, and reads as none.
 */
export class DirVerifications implements VerificationStore {
  constructor(private readonly dir: string) {}

  get(key: string): Verification | undefined {
    try {
      const text = readRegularFile(this.file(key), {
        maxBytes: MAX_VERIFICATION_BYTES,
        follow: false,
      });
      const stored = parseStoredJson(text) as { key?: unknown; verification?: unknown } | null;
      if (stored?.key !== key) return undefined;
      const read = verificationSchema.safeParse(stored.verification);
      return read.success ? read.data : undefined;
    } catch {
      return undefined;
    }
  }

  put(key: string, verification: Verification): void {
    writeFileAtomic(this.file(key), JSON.stringify({ key, verification }) + '\n');
  }

  private file(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not a verification key: ${key}`);
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
