import { parseStoredJson } from '../../util/json.js';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { realDir } from './real-dir.js';
import { join } from 'node:path';
import { readRegularFile } from './read-file.js';
import { cachedOracleSchema, type CachedOracle } from '../../contracts/oracle.js';
import { writeFileAtomic } from './atomic.js';
import type { OracleStore } from '../../contracts/ports.js';

const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * Oracles on disk: `<dir>/<key>/oracle.json` (SWE-Flux format) and
 * `context.json`. A corrupt entry is reported through `warn` and treated as a
 * miss, so it is re-harvested rather than trusted or fatal. The directory may
 * be restored from elsewhere (an Actions cache): an entry file is read only
 * when it is a regular file (a symbolic link is not followed), and a slot
 * that is not one (a directory, a link) is replaced when the oracle is stored.
 */
export class DirOracleCache implements OracleStore {
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  private entryDir(key: string): string {
    return join(realDir(this.dir, 'The oracle cache'), key);
  }

  get(key: string): CachedOracle | undefined {
    if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
    const dir = this.entryDir(key);
    // The slot itself a link (to anywhere): not an entry of this cache.
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
    if (!lstatSync(join(dir, 'oracle.json'), { throwIfNoEntry: false })) return undefined;
    try {
      const read = (name: string) =>
        parseStoredJson(
          readRegularFile(join(dir, name), { maxBytes: MAX_ENTRY_BYTES, follow: false }),
        ) as unknown;
      return cachedOracleSchema.parse({
        oracle: read('oracle.json'),
        context: read('context.json'),
      });
    } catch (error) {
      this.warn(
        `Ignoring corrupt cache entry ${dir} (${(error as Error).message.split('\n')[0]}); it will be re-harvested.`,
      );
      return undefined;
    }
  }

  /** The keys of the entries present (slots named like a key and holding a directory). */
  keys(): string[] {
    let names: string[];
    const dir = realDir(this.dir, 'The oracle cache');
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => /^[0-9a-f]{64}$/.test(n))
      .filter((n) => lstatSync(this.entryDir(n), { throwIfNoEntry: false })?.isDirectory())
      .sort();
  }

  put(key: string, entry: CachedOracle): void {
    const dir = this.entryDir(key);
    if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === false)
      rmSync(dir, { recursive: true, force: true }); // a link or a file where the entry goes
    for (const name of ['context.json', 'oracle.json']) {
      const slot = join(dir, name);
      if (lstatSync(slot, { throwIfNoEntry: false })?.isFile() === false)
        rmSync(slot, { recursive: true, force: true }); // not an entry: what the harvest stores replaces it
    }
    // context.json first: an entry whose oracle.json exists is complete.
    writeFileAtomic(join(dir, 'context.json'), JSON.stringify(entry.context, null, 2) + '\n');
    writeFileAtomic(join(dir, 'oracle.json'), JSON.stringify(entry.oracle, null, 2) + '\n');
  }
}
