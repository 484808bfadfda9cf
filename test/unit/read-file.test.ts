import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  readRegularFile,
  readRegularRange,
  UnreadableFileError,
} from '../../src/adapters/stores/read-file.js';
import { readResults } from '../../src/adapters/stores/results-dir.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    if (error instanceof UnreadableFileError || error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('read, where a refusal was expected');
};

describe('the host reads only the regular files it meant, within a bound', () => {
  const dir = tempDir('tg-read-');
  const file = join(dir, 'a.json');
  writeFileSync(file, '{"a": 1}');
  const link = join(dir, 'link.json');
  symlinkSync(file, link);
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  mkdirSync(join(dir, 'sub'));

  it('reads a regular file, and a link only where links are followed', () => {
    expect(readRegularFile(file, { maxBytes: 100, follow: false })).toBe('{"a": 1}');
    expect(readRegularFile(link, { maxBytes: 100, follow: true })).toBe('{"a": 1}');
    expect(refusal(() => readRegularFile(link, { maxBytes: 100, follow: false }))).toMatch(
      /link\.json is a symbolic link, which is not followed/,
    );
  });

  it.each([
    ['/dev/zero', /is a device/],
    [fifo, /is a named pipe/], // opened without waiting for a writer: refused, never a hang
    [join(dir, 'sub'), /is a directory/],
  ])('refuses %s as what it is', (path, why) => {
    expect(refusal(() => readRegularFile(path, { maxBytes: 100, follow: true }))).toMatch(why);
  });

  it('refuses a file over the bound, naming both sizes', () => {
    expect(refusal(() => readRegularFile(file, { maxBytes: 4, follow: false }))).toMatch(
      /is 8 bytes, over the 4 read at most/,
    );
  });

  it('reads a range of a regular file only: never a link, a pipe, a device, or past its end', () => {
    expect(readRegularRange(file, 1, 3)?.toString()).toBe('"a"');
    expect(readRegularRange(file, 0, 8)?.toString()).toBe('{"a": 1}');
    expect(readRegularRange(file, 4, 5)).toBeUndefined(); // ends one byte short
    for (const path of [link, fifo, '/dev/zero', join(dir, 'sub'), join(dir, 'gone')])
      expect(readRegularRange(path, 0, 1)).toBeUndefined();
  });

  it('compare --candidate on a device or a pipe is a usage error that says what to give', () => {
    for (const path of ['/dev/zero', fifo])
      expect(refusal(() => readResults(path, '--candidate'))).toMatch(
        /^--candidate .* is a (device|named pipe): give a results\.json a tracegate run wrote$/,
      );
  });
});
