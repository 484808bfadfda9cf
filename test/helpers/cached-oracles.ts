// The oracles a harvest left in a cache directory, comparable across harvests: each key's
// oracle.json without the moment it was harvested, sorted by key.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function cachedOracles(cache: string): string[] {
  const root = join(cache, 'oracles');
  return readdirSync(root)
    .sort()
    .map((key) => {
      const oracle = JSON.parse(readFileSync(join(root, key, 'oracle.json'), 'utf8')) as {
        meta: Record<string, unknown>;
      };
      delete oracle.meta.harvested_at;
      return `${key} ${JSON.stringify(oracle)}`;
    });
}
