import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DirResponseCache } from '../../src/adapters/stores/response-cache.js';
import { tempDir } from '../helpers/cli.js';

const reply = (text: string) => ({ text, tokensIn: 3, tokensOut: 2, latencyMs: 5, retries: 0 });
const A = 'ab'.repeat(32);
const B = 'cd'.repeat(32);
const logsOf = (dir: string) => readdirSync(join(dir, 'log')).map((n) => join(dir, 'log', n));

describe('replies in append-only logs', () => {
  it('answers a reply put by this object or by an earlier one, from one log per writer', () => {
    const dir = tempDir('tg-log-');
    const first = new DirResponseCache(dir);
    first.put(A, reply('one'));
    first.put(B, reply('two'));
    expect(first.get(A)?.text).toBe('one');
    expect(logsOf(dir)).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['log']); // no file per reply
    const second = new DirResponseCache(dir);
    expect(second.get(B)).toEqual(reply('two'));
    second.put(A, reply('newer'));
    expect(logsOf(dir)).toHaveLength(2);
    expect(new DirResponseCache(dir).get(A)?.text).toBe('newer'); // a later line wins
  });

  it('reads the logs within bounds, each and together, newest first, in bounded chunks', () => {
    const dir = tempDir('tg-log-bounds-');
    const key = (i: number) => i.toString(16).padStart(64, '0');
    // Three writers, one after another; each line is ~110 bytes, each log ~1.1 KB.
    const writers = [0, 1, 2].map((w) => {
      const cache = new DirResponseCache(dir);
      for (let i = 0; i < 10; i++) cache.put(key(w * 10 + i), reply(`w${w}-${i}`));
      return cache;
    });
    expect(writers).toHaveLength(3);
    const logs = logsOf(dir).sort();
    expect(logs).toHaveLength(3);
    const size = readFileSync(logs[0]!).length;
    // Chunks far smaller than a line: every line still indexed whole, at its offset.
    const chunked = new DirResponseCache(dir, { chunkBytes: 7 });
    for (let i = 0; i < 30; i++)
      expect(chunked.get(key(i))?.text).toBe(`w${Math.floor(i / 10)}-${i % 10}`);
    // Together at most two logs' bytes: the oldest log is not read, its replies are asked again.
    const total = new DirResponseCache(dir, { totalBytes: 2 * size + 10 });
    expect(total.get(key(0))).toBeUndefined();
    expect(total.get(key(15))?.text).toBe('w1-5');
    expect(total.get(key(29))?.text).toBe('w2-9');
    // At most one log: the newest.
    const one = new DirResponseCache(dir, { logs: 1 });
    expect([one.get(key(15)), one.get(key(25))?.text]).toEqual([undefined, 'w2-5']);
    // A log over the bound for one is not read; a writer begins another before its log passes it.
    const small = new DirResponseCache(tempDir('tg-log-each-'), { logBytes: 3 * 120 });
    for (let i = 0; i < 10; i++) small.put(key(i), reply(`s${i}`));
    const written = logsOf(small.dir);
    expect(written.length).toBeGreaterThan(2);
    for (const log of written) expect(readFileSync(log).length).toBeLessThanOrEqual(3 * 120);
    const again = new DirResponseCache(small.dir, { logBytes: 3 * 120 });
    for (let i = 0; i < 10; i++) expect(again.get(key(i))?.text).toBe(`s${i}`);
    appendFileSync(written.sort().at(-1)!, 'x'.repeat(400) + '\n');
    expect(new DirResponseCache(small.dir, { logBytes: 3 * 120 }).get(key(9))).toBeUndefined();
  });

  it("keeps every reply a killed writer's log had finished, and skips its torn line", () => {
    const dir = tempDir('tg-log-killed-');
    // Two replies put, then the writer killed in the middle of a third line.
    const cache = new DirResponseCache(dir);
    cache.put(A, reply('kept'));
    cache.put(B, reply('also kept'));
    const log = logsOf(dir)[0]!;
    appendFileSync(log, '["' + 'ef'.repeat(32) + '",{"text":"to'); // torn by the kill
    const next = new DirResponseCache(dir);
    expect(next.get(A)?.text).toBe('kept');
    expect(next.get(B)?.text).toBe('also kept');
    expect(next.get('ef'.repeat(32))).toBeUndefined();
    // The next writer's lines are its own log's: the torn line costs nothing more.
    next.put('ef'.repeat(32), reply('asked again'));
    expect(new DirResponseCache(dir).get('ef'.repeat(32))?.text).toBe('asked again');
  });

  it('refuses what a forged log holds: another key, a path for a key, a reply of the wrong shape', () => {
    const dir = tempDir('tg-log-forged-');
    mkdirSync(join(dir, 'log'), { recursive: true });
    const lines = [
      JSON.stringify(['../../../etc/passwd', reply('a path')]),
      JSON.stringify([A, { text: 42 }]),
      JSON.stringify([B, reply('fine')]),
      'not json at all',
    ];
    writeFileSync(join(dir, 'log', `00000000a-1-${'0'.repeat(12)}.jsonl`), lines.join('\n') + '\n');
    // A name that is no log of ours is never read.
    writeFileSync(join(dir, 'log', 'other.jsonl'), JSON.stringify([A, reply('unnamed')]) + '\n');
    const cache = new DirResponseCache(dir);
    expect(cache.get(A)).toBeUndefined();
    expect(cache.get(B)?.text).toBe('fine');
    expect(cache.get('../../../etc/passwd')).toBeUndefined();
  });

  it('refuses counts no reply had: infinite, negative, fractional or past 1e9 (issue 45)', () => {
    const dir = tempDir('tg-log-counts-');
    mkdirSync(join(dir, 'log'), { recursive: true });
    const keys = ['01', '23', '45', '67', '89'].map((k) => k.repeat(32));
    const bad = [
      '{"text":"x","tokensIn":1e999,"tokensOut":1,"latencyMs":1,"retries":0}',
      '{"text":"x","tokensIn":-5,"tokensOut":1,"latencyMs":1,"retries":0}',
      '{"text":"x","tokensIn":1.5,"tokensOut":1,"latencyMs":1,"retries":0}',
      '{"text":"x","tokensIn":1,"tokensOut":1e12,"latencyMs":1,"retries":0}',
    ];
    const lines = bad.map((r, i) => `["${keys[i]}",${r}]`);
    lines.push(`["${keys[4]}",${JSON.stringify(reply('fine'))}]`);
    writeFileSync(join(dir, 'log', `00000000a-1-${'0'.repeat(12)}.jsonl`), lines.join('\n') + '\n');
    const cache = new DirResponseCache(dir);
    for (const key of keys.slice(0, 4)) expect(cache.get(key)).toBeUndefined();
    expect(cache.get(keys[4]!)?.text).toBe('fine');
  });

  it('a line indexed under one key never answers another (the index points at the wrong line)', () => {
    const dir = tempDir('tg-log-mismatch-');
    const cache = new DirResponseCache(dir);
    cache.put(A, reply('for A'));
    const log = logsOf(dir)[0]!;
    // Rewritten under the cache: same length, another key.
    const text = readFileSync(log, 'utf8').replace(A, B);
    writeFileSync(log, text);
    expect(cache.get(A)).toBeUndefined();
  });

  it('holds a reply written by another process', () => {
    const dir = tempDir('tg-log-process-');
    const line = JSON.stringify([A, reply('from a child')]) + '\n';
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        `const fs=require('fs');fs.mkdirSync(process.argv[1]+'/log',{recursive:true});` +
          `fs.appendFileSync(process.argv[1]+'/log/'+Date.now().toString(36).padStart(9,'0')+'-'+process.pid+'-0123456789ab.jsonl',process.argv[2]);`,
        dir,
        line,
      ],
      { encoding: 'utf8' },
    );
    expect(child.status).toBe(0);
    expect(new DirResponseCache(dir).get(A)?.text).toBe('from a child');
  });
});

describe('a hostile cache directory (restored from elsewhere)', () => {
  it('never follows a log that is a link, and prunes a directory or a link named like a log', () => {
    const dir = tempDir('tg-log-hostile-');
    const outside = join(tempDir('tg-log-outside-'), 'secret.jsonl');
    writeFileSync(outside, JSON.stringify([A, reply('from outside the cache')]) + '\n');
    mkdirSync(join(dir, 'log'), { recursive: true });
    symlinkSync(outside, join(dir, 'log', `00000000a-1-${'1'.repeat(12)}.jsonl`));
    mkdirSync(join(dir, 'log', `00000000b-1-${'2'.repeat(12)}.jsonl`));
    const cache = new DirResponseCache(dir);
    expect(cache.get(A)).toBeUndefined(); // the link is not read
    cache.put(B, reply('this run'));
    expect(() => cache.prune(Date.now())).not.toThrow();
    expect(readdirSync(join(dir, 'log'))).toHaveLength(1); // only this run's replies are left
    expect(readFileSync(outside, 'utf8')).toContain('from outside the cache'); // the target untouched
    expect(new DirResponseCache(dir).get(B)?.text).toBe('this run');
  });
});
