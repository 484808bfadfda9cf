import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTar, TarReadError } from '../../src/adapters/backends/docker/tar-read.js';
import { tarOf } from '../../src/adapters/backends/docker/tar.js';

/** Archives as the engine sends a container's paths back: read whole, named as the engine resolves them. */
describe('reading a tar archive from a buffer', () => {
  const deep = `${'d'.repeat(90)}/${'e'.repeat(90)}/module.py`; // 186 bytes: the ustar prefix holds its head

  it('reads what tarOf writes: directories, files with their bytes, a long path, a link', () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const archive = tarOf([
      { path: '.', mode: 0o755, kind: 'dir' },
      { path: './pkg', mode: 0o755, kind: 'dir' },
      { path: './pkg/mod.py', mode: 0o644, kind: 'file', data: Buffer.from('x = 1\n') },
      { path: './pkg/blob.bin', mode: 0o644, kind: 'file', data: bytes },
      { path: `./${deep}`, mode: 0o644, kind: 'file', data: Buffer.from('deep\n') },
      { path: './alias.py', mode: 0o777, kind: 'link', target: 'pkg/mod.py' },
      { path: './empty.txt', mode: 0o644, kind: 'file' },
    ]);
    expect(readTar(archive)).toEqual([
      { path: '', kind: 'dir' },
      { path: 'pkg', kind: 'dir' },
      { path: 'pkg/mod.py', kind: 'file', data: Buffer.from('x = 1\n') },
      { path: 'pkg/blob.bin', kind: 'file', data: bytes },
      { path: deep, kind: 'file', data: Buffer.from('deep\n') },
      { path: 'alias.py', kind: 'link', target: 'pkg/mod.py' },
      { path: 'empty.txt', kind: 'file', data: Buffer.alloc(0) },
    ]);
  });

  it.each(['gnu', 'pax'])(
    "reads GNU tar's %s archives: long names and long link targets in their meta headers, hard links as their file",
    (format) => {
      const root = mkdtempSync(join(tmpdir(), 'tg-tar-read-'));
      const long = 'n'.repeat(120); // past ustar's 100-byte name, in one component: no prefix can hold it
      mkdirSync(join(root, 'src', long), { recursive: true });
      writeFileSync(join(root, 'src', long, 'f.py'), 'print(1)\n');
      symlinkSync(`../src/${long}/f.py`, join(root, 'src', 'far'));
      linkSync(join(root, 'src', long, 'f.py'), join(root, 'src', 'hard.py'));
      const file = join(root, 'a.tar');
      execFileSync('tar', [`--format=${format}`, '--sort=name', '-cf', file, '-C', root, 'src']);
      const byPath = new Map(readTar(readFileSync(file)).map((e) => [e.path, e]));
      expect(byPath.get(`src/${long}/f.py`)).toEqual({
        path: `src/${long}/f.py`,
        kind: 'file',
        data: Buffer.from('print(1)\n'),
      });
      expect(byPath.get('src/far')).toEqual({
        path: 'src/far',
        kind: 'link',
        target: `../src/${long}/f.py`,
      });
      // Stored once: the second name reads with the bytes of the first.
      expect(byPath.get('src/hard.py')?.kind).toBe('file');
      expect(byPath.get('src/hard.py')?.data?.toString()).toBe('print(1)\n');
      expect([...byPath.keys()].sort()).toEqual(
        ['src', `src/${long}`, `src/${long}/f.py`, 'src/far', 'src/hard.py'].sort(),
      );
    },
  );

  it("refuses an archive cut short, in a header or in a file's content", () => {
    const archive = tarOf([
      { path: './a.py', mode: 0o644, kind: 'file', data: Buffer.from('a\n') },
      { path: './b.py', mode: 0o644, kind: 'file', data: Buffer.from('b\n') },
    ]);
    for (const cut of [1024 + 256, 512 + 1])
      expect(() => readTar(archive.subarray(0, cut))).toThrow(new TarReadError('truncated'));
    expect(readTar(archive)).toHaveLength(2);
  });
});
