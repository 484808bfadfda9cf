import { cacheKeys, MAX_KEY } from '../../src/adapters/stores/cache-keys.js';

describe('Actions cache keys', () => {
  it('are the scope, the model revision and the run; restore falls back from the most specific', () => {
    const keys = cacheKeys(['tracer', 'base', 'i1', 'i2'], 'rev-1', '42-1');
    expect(keys.primary).toMatch(/^tracegate-v2-[0-9a-f]{16}-[0-9a-f]{12}-42-1$/);
    const [sameRev, sameScope, any] = keys.restore;
    expect(keys.primary.startsWith(sameRev!)).toBe(true);
    expect(sameRev!.startsWith(sameScope!)).toBe(true);
    expect(any).toBe('tracegate-v2-');
    // The order of the parts does not matter; their content does.
    expect(cacheKeys(['i2', 'i1', 'base', 'tracer'], 'rev-1', '42-1')).toEqual(keys);
    expect(cacheKeys(['tracer', 'base', 'i1', 'i3'], 'rev-1', '42-1').primary).not.toBe(
      keys.primary,
    );
  });

  it('stay within what the service takes, whatever the run id holds', () => {
    for (const runId of ['9'.repeat(600), 'a,b', 'x y', '']) {
      const { primary, restore } = cacheKeys(['t'], undefined, runId);
      for (const key of [primary, ...restore]) {
        expect(key.length).toBeLessThanOrEqual(MAX_KEY);
        expect(key).not.toContain(',');
      }
      expect(primary).toMatch(/-[0-9a-f]{16}$/);
    }
  });
});
