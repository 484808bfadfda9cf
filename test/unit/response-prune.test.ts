import { existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { DirResponseCache, pruneUnused } from '../../src/adapters/stores/response-cache.js';
import { tempDir } from '../helpers/cli.js';

const reply = (text: string) => ({
  text,
  tokensIn: 1,
  tokensOut: 1,
  latencyMs: 1,
  retries: 0,
});

describe("the shared cache keeps this run's replies only", () => {
  it('removes replies neither read nor written since the run began; keeps the ones it read or wrote', () => {
    const dir = tempDir('tg-prune-');
    const cache = new DirResponseCache(dir);
    for (const key of ['aa01', 'aa02', 'bb01']) cache.put(key, reply(key));
    // As restored from an older entry: tar gives the files their old times.
    const old = new Date(Date.now() - 3_600_000);
    for (const [shard, key] of [
      ['aa', 'aa01'],
      ['aa', 'aa02'],
      ['bb', 'bb01'],
    ] as const)
      utimesSync(join(dir, shard, `${key}.json`), old, old);
    const started = Date.now();
    expect(cache.get('aa02')?.text).toBe('aa02'); // read this run
    cache.put('cc01', reply('cc01')); // written this run
    expect(pruneUnused(dir, started)).toBe(2);
    expect(cache.get('aa01')).toBeUndefined();
    expect(cache.get('bb01')).toBeUndefined();
    expect(cache.get('aa02')?.text).toBe('aa02');
    expect(cache.get('cc01')?.text).toBe('cc01');
  });

  it('is a no-op on a cache without replies', () => {
    const dir = tempDir('tg-prune-empty-');
    expect(pruneUnused(join(dir, 'responses'), Date.now())).toBe(0);
    expect(existsSync(join(dir, 'responses'))).toBe(false);
  });
});
