import { lstatSync, readdirSync, unlinkSync, utimesSync } from 'node:fs';
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
      const completion = storedSchema.parse(JSON.parse(text));
      touch(file); // used this run: kept when the shared cache is pruned (pruneUnused)
      return completion;
    } catch {
      return undefined;
    }
  }

  put(key: string, completion: Completion): void {
    const file = this.file(key);
    writeFileAtomic(file, JSON.stringify({ ...completion, cached: undefined }));
  }
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // A read-only cache still answers; it is only not pruned as precisely.
  }
}

/**
 * Removes the replies no one read or wrote since `since` (ms): before a
 * shared cache is saved, so that its entry holds this run's replies and not
 * every earlier model revision's, which no later run asks again (each
 * commit is a revision of its own). Returns how many it removed.
 */
export function pruneUnused(dir: string, since: number): number {
  let removed = 0;
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return 0;
  for (const shard of readdirSync(dir, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue;
    const at = join(dir, shard.name);
    for (const name of readdirSync(at)) {
      const file = join(at, name);
      const stat = lstatSync(file, { throwIfNoEntry: false });
      // A second of slack: some filesystems keep whole-second times.
      if (stat && (!stat.isFile() || stat.mtimeMs < since - 1000)) {
        unlinkSync(file);
        removed++;
      }
    }
  }
  return removed;
}
