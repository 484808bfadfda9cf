import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { readRegularFile } from './read-file.js';

/** A stored reply larger than this is not one (replies are read up to 8 MiB). */
const MAX_STORED_BYTES = 16 * 1024 * 1024;
import type { ResponseCache } from '../../contracts/ports.js';
import type { Completion } from '../../contracts/model.js';

const storedSchema = z.object({
  text: z.string(),
  reasoning: z.string().optional(),
  finishReason: z.string().optional(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  latencyMs: z.number(),
  retries: z.number(),
});

/**
 * Replies on disk under `<cache>/responses/<k[0:2]>/<k>.json`, written then
 * renamed. A corrupt entry is a miss (asked again), never trusted or fatal.
 */
export class DirResponseCache implements ResponseCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): Completion | undefined {
    const file = this.file(key);
    if (!lstatSync(file, { throwIfNoEntry: false })) return undefined;
    try {
      const text = readRegularFile(file, { maxBytes: MAX_STORED_BYTES, follow: false });
      return storedSchema.parse(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  put(key: string, completion: Completion): void {
    const file = this.file(key);
    writeFileAtomic(file, JSON.stringify({ ...completion, cached: undefined }));
  }
}
