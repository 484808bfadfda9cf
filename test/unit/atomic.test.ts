import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { assertWritable, makeDirs } from '../../src/adapters/stores/atomic.js';
import { tempDir } from '../helpers/cli.js';

describe('directories the stores make', () => {
  it('makes every missing level, and takes one that exists (or appears meanwhile)', () => {
    const dir = join(tempDir('tg-dirs-'), 'a', 'b', 'c');
    makeDirs(dir);
    makeDirs(dir);
    expect(existsSync(dir)).toBe(true);
  });

  it('a cache under /proc fails at once, saying what to do (a recursive mkdir there never returns)', () => {
    expect(() => assertWritable('/proc/tracegate-cache/x')).toThrow(
      'Could not write /proc/tracegate-cache/x: a directory cannot be created there: point the directory elsewhere.',
    );
  });
});
