import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cachedOracleSchema, type CachedOracle } from './oracle.js';

/** Content-addressed oracle store. */
export interface OracleCache {
  get(key: string): CachedOracle | undefined;
  put(key: string, entry: CachedOracle): void;
}

/**
 * Oracles on disk: `<dir>/oracles/<key>/oracle.json` (SWE-Flux format) and
 * `context.json`. A corrupt entry is reported through `warn` and treated as a
 * miss, so it is re-harvested rather than trusted or fatal.
 */
export class DirOracleCache implements OracleCache {
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  private entryDir(key: string): string {
    return join(this.dir, 'oracles', key);
  }

  get(key: string): CachedOracle | undefined {
    const dir = this.entryDir(key);
    if (!existsSync(join(dir, 'oracle.json'))) return undefined;
    try {
      const entry = {
        oracle: JSON.parse(readFileSync(join(dir, 'oracle.json'), 'utf8')),
        context: JSON.parse(readFileSync(join(dir, 'context.json'), 'utf8')),
      };
      return cachedOracleSchema.parse(entry);
    } catch (error) {
      this.warn(
        `Ignoring corrupt cache entry ${dir} (${(error as Error).message.split('\n')[0]}); it will be re-harvested.`,
      );
      return undefined;
    }
  }

  put(key: string, entry: CachedOracle): void {
    const dir = this.entryDir(key);
    mkdirSync(dir, { recursive: true });
    // Write-then-rename so an interrupted run never leaves a half-written oracle.
    for (const [name, value] of [
      ['context.json', entry.context],
      ['oracle.json', entry.oracle],
    ] as const) {
      const tmp = join(dir, `.${name}.${process.pid}.tmp`);
      writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
      renameSync(tmp, join(dir, name));
    }
  }
}
