import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirOracleCache } from '../../src/adapters/stores/oracle-cache.js';
import type { CachedOracle } from '../../src/contracts/oracle.js';
import { ORACLE_ENTRY } from '../helpers/oracle-entry.js';
import { tempDir } from '../helpers/cli.js';

/** Keys are sha256 digests; anything else is never a key. */
const K = 'a'.repeat(64);

const entry: CachedOracle = ORACLE_ENTRY;

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

describe('the oracle cache reads only its own regular files (a restored cache may hold anything)', () => {
  const secret = 'root-password-hunter2';

  it('does not follow an oracle.json that is a link: a miss whose warning holds none of the target', () => {
    const dir = tempDir();
    const outside = join(dir, 'outside.json');
    writeFileSync(outside, `{"secret": "${secret}"`);
    const warnings: string[] = [];
    const cache = new DirOracleCache(join(dir, 'oracles'), (m) => warnings.push(m));
    cache.put(K, entry);
    const slot = join(dir, 'oracles', K, 'oracle.json');
    rmSync(slot);
    symlinkSync(outside, slot);
    expect(cache.get(K)).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/symbolic link, which is not followed/);
    expect(warnings.join('\n')).not.toContain(secret);
    cache.put(K, entry); // the harvest stores the oracle again: the link is replaced, its target kept
    expect(cache.get(K)).toEqual(entry);
    expect(readFileSync(outside, 'utf8')).toContain(secret);
  });

  it('repairs a slot that is a directory, and an entry directory that is a link, instead of failing', () => {
    const dir = tempDir();
    const cache = new DirOracleCache(join(dir, 'oracles'), () => {});
    mkdirSync(join(dir, 'oracles', K, 'oracle.json', 'deep'), { recursive: true });
    expect(cache.get(K)).toBeUndefined();
    cache.put(K, entry); // was EISDIR, failing the whole harvest
    expect(cache.get(K)).toEqual(entry);

    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const other = 'c'.repeat(64);
    symlinkSync(elsewhere, join(dir, 'oracles', other));
    expect(cache.get(other)).toBeUndefined();
    cache.put(other, entry);
    expect(cache.get(other)).toEqual(entry);
    expect(readdirSync(elsewhere)).toEqual([]); // nothing written through the link
  });
});

describe('a restored entry nested far too deep (issue 45: 100,000 levels ended every run)', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('is a corrupt oracle entry: a miss, said, re-harvested', () => {
    const dir = tempDir();
    const cache = new DirOracleCache(join(dir, 'oracles'));
    cache.put(K, entry);
    const file = join(dir, 'oracles', K, 'oracle.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      file,
      JSON.stringify(stored).replace('{"loop_iteration_count":8}', deep(100_000)),
    );
    const warned: string[] = [];
    const reading = new DirOracleCache(join(dir, 'oracles'), (m) => warned.push(m));
    expect(reading.get(K)).toBeUndefined();
    expect(warned.join('\n')).toMatch(
      /Ignoring corrupt cache entry .*nested deeper than 64 levels/,
    );
    cache.put(K, entry); // the re-harvested entry replaces it
    expect(reading.get(K)).toEqual(entry);
  });

  it('is a skipped history entry, said by name', async () => {
    const { DirHistory } = await import('../../src/adapters/history/dir.js');
    const { entry: historyEntry } = await import('../helpers/history.js');
    const dir = tempDir();
    const warned: string[] = [];
    const history = new DirHistory(dir, (m) => warned.push(m));
    const e = historyEntry('c1', { branch: 'main', verdict: 'pass' });
    await history.record(e);
    writeFileSync(join(dir, 'entries', e.name, `${e.commit}.json`), deep(100_000));
    expect(await history.entry(e.name, e.commit)).toBeUndefined();
    expect(warned.join('\n')).toMatch(/not valid JSON \(nested deeper than 128 levels\)/);
  });
});
