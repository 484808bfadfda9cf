import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirOracleCache } from '../../src/harvest/cache.js';
import type { CachedOracle } from '../../src/harvest/oracle.js';
import { tempDir } from '../helpers/cli.js';

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
    const cache = new DirOracleCache(dir);
    cache.put('k1', entry);
    expect(cache.get('k1')).toEqual(entry);
    const onDisk = JSON.parse(readFileSync(join(dir, 'oracles', 'k1', 'oracle.json'), 'utf8'));
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
    const cache = new DirOracleCache(dir, (m) => warnings.push(m));
    cache.put('k1', entry);
    writeFileSync(join(dir, 'oracles', 'k1', 'oracle.json'), text);
    expect(cache.get('k1')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Ignoring corrupt cache entry .*k1.*re-harvested/);
    // A fresh put repairs it.
    cache.put('k1', entry);
    expect(cache.get('k1')).toEqual(entry);
  });

  it('misses cleanly on an absent key', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'oracles'), { recursive: true });
    expect(new DirOracleCache(dir).get('nope')).toBeUndefined();
  });
});
