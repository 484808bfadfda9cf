import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedOracleSchema, type CachedOracle } from '../../contracts/oracle.js';
import { writeFileAtomic } from './atomic.js';
import type { OracleStore } from '../../contracts/ports.js';

const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * Oracles on disk: `<dir>/<key>/oracle.json` (SWE-Flux format) and
 * `context.json`. A corrupt entry is reported through `warn` and treated as a
 * miss, so it is re-harvested rather than trusted or fatal.
 */
export class DirOracleCache implements OracleStore {
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  private entryDir(key: string): string {
    return join(this.dir, key);
  }

  get(key: string): CachedOracle | undefined {
    if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
    const dir = this.entryDir(key);
    if (!existsSync(join(dir, 'oracle.json'))) return undefined;
    try {
      const read = (name: string) => {
        const text = readFileSync(join(dir, name), 'utf8');
        if (text.length > MAX_ENTRY_BYTES)
          throw new Error(`${name} is over ${MAX_ENTRY_BYTES} bytes`);
        return JSON.parse(text) as unknown;
      };
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

  put(key: string, entry: CachedOracle): void {
    const dir = this.entryDir(key);
    // context.json first: an entry whose oracle.json exists is complete.
    writeFileAtomic(join(dir, 'context.json'), JSON.stringify(entry.context, null, 2) + '\n');
    writeFileAtomic(join(dir, 'oracle.json'), JSON.stringify(entry.oracle, null, 2) + '\n');
  }
}
