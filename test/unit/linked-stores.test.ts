import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirHistory } from '../../src/adapters/history/dir.js';
import { DirOracleCache } from '../../src/adapters/stores/oracle-cache.js';
import { DirResponseCache } from '../../src/adapters/stores/response-cache.js';
import type { CachedOracle } from '../../src/contracts/oracle.js';
import { ORACLE_ENTRY } from '../helpers/oracle-entry.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { entry as historyEntry } from '../helpers/history.js';

const K = 'b'.repeat(64);
const oracle: CachedOracle = ORACLE_ENTRY;

/**
 * A restored cache or a history directory is data from outside: a store's own folder that is a
 * symbolic link is refused by name, never read through or written through (issue 45: `oracles/`,
 * `responses/log` and `entries/<name>` links were followed, new files written where they pointed).
 */
describe('stores refuse a linked folder', () => {
  const host = () => {
    const dir = tempDir('tg-host-');
    writeFileSync(join(dir, 'keep.txt'), 'host');
    return dir;
  };

  it('the oracle cache: oracles/ a link', () => {
    const root = tempDir('tg-linked-');
    const target = host();
    symlinkSync(target, join(root, 'oracles'));
    const cache = new DirOracleCache(join(root, 'oracles'));
    expect(() => cache.get(K)).toThrow(UsageError);
    expect(() => cache.put(K, oracle)).toThrow(/oracle cache .*oracles is a symbolic link/);
    expect(() => cache.keys()).toThrow(UsageError);
    expect(readdirSync(target)).toEqual(['keep.txt']);
  });

  it('the reply cache: responses/ or its log folder a link', () => {
    for (const linked of ['responses', join('responses', 'log')]) {
      const root = tempDir('tg-linked-');
      const target = host();
      if (linked !== 'responses') mkdirSync(join(root, 'responses'));
      symlinkSync(target, join(root, linked), 'dir');
      const cache = new DirResponseCache(join(root, 'responses'));
      expect(() =>
        cache.put('c'.repeat(64), {
          text: 'x',
          tokensIn: 1,
          tokensOut: 1,
          latencyMs: 1,
          retries: 0,
        }),
      ).toThrow(/is a symbolic link/);
      expect(readdirSync(target)).toEqual(['keep.txt']);
    }
  });

  it('the history: entries/ or entries/<name> a link', async () => {
    for (const linked of ['entries', join('entries', 'tracegate')]) {
      const dir = tempDir('tg-linked-history-');
      const target = host();
      if (linked !== 'entries') mkdirSync(join(dir, 'entries'));
      symlinkSync(target, join(dir, linked));
      const history = new DirHistory(dir, () => {});
      const e = historyEntry('c1', { branch: 'main', verdict: 'pass' });
      await expect(history.record(e)).rejects.toThrow(/history folder .* is a symbolic link/);
      await expect(history.entry(e.name, e.commit)).rejects.toThrow(UsageError);
      expect(readdirSync(target)).toEqual(['keep.txt']);
    }
  });
});
