import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirOracleCache } from '../../src/adapters/stores/oracle-cache.js';
import type { CachedOracle } from '../../src/contracts/oracle.js';
import { tempDir } from '../helpers/cli.js';

/** Keys are sha256 digests; anything else is never a key. */
const K = 'a'.repeat(64);

const entry: CachedOracle = {
  oracle: {
    question_kind: 'S2_Loops',
    question: 'How many?',
    template_answer: { loop_iteration_count: 'int' },
    oracle_answer: { loop_iteration_count: 8 },
    meta: {
      instance_id: 'x',
      instance_hash: 'h',
      environment_digest: 'e',
      python: '3.11.2',
      tracer_version: '0.1.0',
      runs_agreed: 1,
      harvested_at: '2026-11-30T00:00:00Z',
    },
  },
  context: { file: 'm.py', func: 'm.f', first_line: 1, source: 'def f(): pass\n' },
};

describe('the oracle cache', () => {
  it('round-trips an entry as SWE-Flux oracle.json plus context.json', () => {
    const dir = tempDir();
    const cache = new DirOracleCache(join(dir, 'oracles'));
    cache.put(K, entry);
    expect(cache.get(K)).toEqual(entry);
    const onDisk = JSON.parse(readFileSync(join(dir, 'oracles', K, 'oracle.json'), 'utf8'));
    expect(Object.keys(onDisk).sort()).toEqual([
      'meta',
      'oracle_answer',
      'question',
      'question_kind',
      'template_answer',
    ]);
  });

  it.each([
    ['truncated JSON', '{"question_kind": "S2_Loops", '],
    ['a wrong shape', '{"question_kind": "S9_Nope"}'],
    ['empty', ''],
  ])('treats a corrupt entry (%s) as a miss and says so', (_what, text) => {
    const dir = tempDir();
    const warnings: string[] = [];
    const cache = new DirOracleCache(join(dir, 'oracles'), (m) => warnings.push(m));
    cache.put(K, entry);
    writeFileSync(join(dir, 'oracles', K, 'oracle.json'), text);
    expect(cache.get(K)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Ignoring corrupt cache entry .*aaaa.*re-harvested/);
    // A fresh put repairs it.
    cache.put(K, entry);
    expect(cache.get(K)).toEqual(entry);
  });

  it('misses cleanly on an absent key', () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const cache = new DirOracleCache(join(dir, 'oracles'), (m) => warnings.push(m));
    cache.put(K, entry);
    // A well-formed key (a sha256 digest) with no entry: a miss, not a refusal.
    expect(cache.get('b'.repeat(64))).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(cache.get(K)).toEqual(entry);
  });
});

describe('the oracle cache refuses what is not a key', () => {
  it.each(['../escape', 'k1', '', 'A'.repeat(64)])('%j is never looked up', (key) => {
    expect(new DirOracleCache(tempDir()).get(key)).toBeUndefined();
  });
});
