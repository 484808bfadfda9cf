import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dirEntries, tarOf } from '../../src/adapters/backends/docker/tar.js';
import { tempDir } from '../helpers/cli.js';

/** The archive a harvest container is given, read back by the system's tar. */
describe('the files a container is given, as an archive', () => {
  it("holds every file root's, group and other write cleared, links kept, bytecode left out", () => {
    const root = tempDir('tg-tar-');
    mkdirSync(join(root, 'pkg', '__pycache__'), { recursive: true });
    writeFileSync(join(root, 'pkg', 'mod.py'), 'x = 1\n');
    chmodSync(join(root, 'pkg', 'mod.py'), 0o666);
    writeFileSync(join(root, 'pkg', '__pycache__', 'mod.pyc'), 'bytecode');
    writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(root, 'run.sh'), 0o777);
    symlinkSync('pkg/mod.py', join(root, 'alias.py'));
    const long = 'd'.repeat(90);
    mkdirSync(join(root, long, long), { recursive: true });
    writeFileSync(join(root, long, long, 'f.txt'), 'deep');
    const archive = join(root, '..', 'a.tar');
    writeFileSync(archive, tarOf(dirEntries(root, '.')));
    const listed = execFileSync('tar', ['-tvf', archive, '--numeric-owner'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/));
    const byPath = new Map(listed.map((l) => [l.slice(5).join(' '), l]));
    expect(byPath.get('./pkg/mod.py')?.[0]).toBe('-rw-r--r--');
    expect(byPath.get('./run.sh')?.[0]).toBe('-rwxr-xr-x');
    expect(byPath.get('./alias.py -> pkg/mod.py')?.[0]).toMatch(/^l/);
    expect([...byPath.keys()].some((p) => p.includes('__pycache__'))).toBe(false);
    expect(byPath.has(`./${long}/${long}/f.txt`)).toBe(true);
    for (const l of listed) expect(l[1]).toBe('0/0');
    const out = tempDir('tg-untar-');
    mkdirSync(out, { recursive: true });
    execFileSync('tar', ['-xf', archive, '-C', out]);
    expect(execFileSync('cat', [join(out, long, long, 'f.txt')], { encoding: 'utf8' })).toBe(
      'deep',
    );
    // The same files give the same bytes.
    expect(tarOf(dirEntries(root, '.')).equals(tarOf(dirEntries(root, '.')))).toBe(true);
  });
});
