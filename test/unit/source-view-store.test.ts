import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirSourceViews } from '../../src/adapters/stores/source-views.js';
import { cacheLayout } from '../../src/adapters/stores/layout.js';
import type { SourceView } from '../../src/contracts/source-view.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const view: SourceView = {
  version: 1,
  origin: '/opt/venv/lib/python3.11/site-packages',
  files: {
    'click/__init__.py': 'from .core import Command\n',
    'click/core.py': 'class Command:\n    pass\n',
  },
  links: { 'click/alias.py': 'core.py' },
  omitted: { 'click/_speedups.so': 'binary' },
};

/** Views by environment digest: what one run exported, the next reads; anything else is a miss. */
describe('the source view store', () => {
  const fresh = () => mkdtempSync(join(tmpdir(), 'tg-views-'));

  it('gives back the view stored under a digest, and none under another', () => {
    const dir = fresh();
    const store = new DirSourceViews(dir);
    expect(store.get(A)).toBeUndefined();
    store.put(A, view);
    expect(store.get(A)).toEqual(view);
    expect(new DirSourceViews(dir).get(A)).toEqual(view); // on disk, not in memory
    expect(store.get(B)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, `${A}.json`), 'utf8'))).toEqual(view);
  });

  it.each<[string, (file: string) => void]>([
    ['not JSON', (file) => writeFileSync(file, '{"version": 1, "files": {')],
    ['not a view', (file) => writeFileSync(file, JSON.stringify({ ...view, files: { a: 1 } }))],
    [
      'a view with a field it does not know',
      (file) => writeFileSync(file, JSON.stringify({ ...view, extra: 1 })),
    ],
    ['a later version', (file) => writeFileSync(file, JSON.stringify({ ...view, version: 2 }))],
    ['a directory', (file) => mkdirSync(file)],
    [
      'a link to a valid view',
      (file) => {
        const elsewhere = join(fresh(), 'view.json');
        writeFileSync(elsewhere, JSON.stringify(view));
        symlinkSync(elsewhere, file);
      },
    ],
  ])('reads a file that is %s as a miss, and a put replaces it', (_, spoil) => {
    const dir = fresh();
    const warned: string[] = [];
    const store = new DirSourceViews(dir, (m) => warned.push(m));
    spoil(join(dir, `${A}.json`));
    expect(store.get(A)).toBeUndefined();
    expect(warned).toEqual([expect.stringContaining(`${A}.json`)]);
    store.put(A, view);
    expect(store.get(A)).toEqual(view);
  });

  it('reads a name that is not a digest as a miss, and refuses to store under one', () => {
    const store = new DirSourceViews(fresh());
    expect(store.get('../escape')).toBeUndefined();
    expect(() => store.put('../escape', view)).toThrow(/not an environment digest/);
  });

  it('is a shared part of the cache (keyed by environment digest, as oracles are)', () => {
    const layout = cacheLayout('/cache');
    expect(layout.views).toBe(join('/cache', 'views'));
    expect(layout.shared).toContain(layout.views);
  });
});
