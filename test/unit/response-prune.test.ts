import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirResponseCache } from '../../src/adapters/stores/response-cache.js';
import { pruneReplies } from '../../src/app/run-gate.js';
import { tempDir } from '../helpers/cli.js';

const reply = (text: string) => ({
  text,
  tokensIn: 1,
  tokensOut: 1,
  latencyMs: 1,
  retries: 0,
});
const key = (n: number) => n.toString(16).padStart(64, 'a');

describe("the shared cache keeps this run's replies only", () => {
  it('removes replies neither read nor written by this run; keeps the ones it read or wrote', () => {
    const dir = tempDir('tg-prune-');
    // An earlier run's replies, as restored from an older entry.
    const earlier = new DirResponseCache(dir);
    for (const n of [1, 2, 3]) earlier.put(key(n), reply(`r${n}`));
    const started = Date.now();
    const cache = new DirResponseCache(dir);
    expect(cache.get(key(2))?.text).toBe('r2'); // read this run
    cache.put(key(4), reply('r4')); // written this run
    expect(cache.prune(started)).toBe(2);
    // The next run (the saved entry restored) finds what this run used, and nothing else.
    const next = new DirResponseCache(dir);
    expect(next.get(key(1))).toBeUndefined();
    expect(next.get(key(3))).toBeUndefined();
    expect(next.get(key(2))?.text).toBe('r2');
    expect(next.get(key(4))?.text).toBe('r4');
    expect(readdirSync(join(dir, 'log'))).toHaveLength(1); // the logs rewritten as one
  });

  it("prunes the older layout's files by when they were last read or written", () => {
    const dir = tempDir('tg-prune-files-');
    const file = (n: number) => join(dir, key(n).slice(0, 2), `${key(n)}.json`);
    mkdirSync(join(dir, key(1).slice(0, 2)), { recursive: true });
    const old = new Date(Date.now() - 3_600_000); // tar gives restored files their old times
    for (const n of [1, 2]) {
      writeFileSync(file(n), JSON.stringify(reply(`f${n}`)));
      utimesSync(file(n), old, old);
    }
    const started = Date.now();
    const cache = new DirResponseCache(dir);
    expect(cache.get(key(2))?.text).toBe('f2'); // read: its file touched
    expect(cache.prune(started)).toBe(1);
    expect(existsSync(file(1))).toBe(false);
    expect(new DirResponseCache(dir).get(key(2))?.text).toBe('f2');
  });

  it('is a no-op on a cache without replies', () => {
    const dir = tempDir('tg-prune-empty-');
    expect(new DirResponseCache(join(dir, 'responses')).prune(Date.now())).toBe(0);
    expect(existsSync(join(dir, 'responses'))).toBe(false);
  });

  it("a prune that fails is a warning: the run's outcome and the entry's save go on", () => {
    const said: string[] = [];
    const logger = {
      log: (m: string) => said.push(`log ${m}`),
      warn: (m: string) => said.push(`warn ${m}`),
      debug: (m: string) => said.push(`debug ${m}`),
    };
    const failing = {
      get: () => undefined,
      put: () => undefined,
      prune: () => {
        throw Object.assign(
          new Error("EACCES: permission denied, unlink 'responses/log/x.jsonl'"),
          {
            code: 'EACCES',
          },
        );
      },
    };
    expect(() => pruneReplies(failing, Date.now(), logger)).not.toThrow();
    expect(said).toEqual([
      expect.stringMatching(
        /^warn Could not leave other runs' replies out of the shared cache \(EACCES: permission denied.*\); the entry is saved with them.*Make the cache directory writable/,
      ),
    ]);
    said.length = 0;
    const dir = tempDir('tg-prune-ok-');
    new DirResponseCache(dir).put(key(1), reply('r1'));
    pruneReplies(new DirResponseCache(dir), Date.now(), logger); // read nothing: prunes the one reply
    expect(said).toEqual([
      'debug Left 1 reply(ies) of other runs out of the shared cache (none was read).',
    ]);
    pruneReplies(undefined, Date.now(), logger);
    expect(said).toHaveLength(1);
  });
});
