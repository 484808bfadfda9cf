import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

const files = sources(join(ROOT, 'src')).map((f) => ({
  path: relative(ROOT, f),
  text: readFileSync(f, 'utf8'),
}));
const importing = (pattern: RegExp) =>
  files.filter((f) => pattern.test(f.text)).map((f) => f.path.replace(/^src\//, ''));

/** What docs/architecture.md says of the tree, checked against it (issue 44: it had drifted). */
describe('docs/architecture.md is true of src/', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

  it('names every file that imports dockerode', () => {
    const users = importing(/from 'dockerode'/);
    expect(users.length).toBeGreaterThan(0);
    for (const path of users) expect(doc).toContain(path.replace(/^adapters\/backends\//, ''));
  });

  it('keeps the filesystem to adapters, the application and the doors (stages, families, contracts: none)', () => {
    expect(
      importing(/from 'node:fs(\/promises)?'/).filter((p) =>
        /^(stages|families|contracts)\//.test(p),
      ),
    ).toEqual([]);
  });

  it('has arrows one way: stages, families and contracts import no layer above them', () => {
    const up = (layer: string, above: string[]) =>
      files
        .filter((f) => f.path.startsWith(`src/${layer}/`))
        .filter((f) => above.some((a) => new RegExp(`from '(\\.\\./)+${a}/`).test(f.text)))
        .map((f) => f.path);
    expect(up('stages', ['adapters', 'app', 'doors'])).toEqual([]);
    expect(up('families', ['stages', 'adapters', 'app', 'doors'])).toEqual([]);
    expect(up('contracts', ['stages', 'families', 'adapters', 'app', 'doors'])).toEqual([]);
    expect(up('adapters', ['stages', 'families', 'app', 'doors'])).toEqual([]);
    expect(up('app', ['doors'])).toEqual([]);
  });

  it('has one composition root: the doors reach stages and adapters only through app/', () => {
    // Issue 44 found 43 such imports; the doors parse, call a use case and print, nothing more.
    const direct = files
      .filter((f) => f.path.startsWith('src/doors/'))
      .flatMap((f) =>
        [...f.text.matchAll(/from '(?:\.\.\/)+(stages|adapters|families)\/([^']+)'/g)].map(
          (m) => `${f.path} → ${m[1]}/${m[2]}`,
        ),
      );
    expect(direct).toEqual([]);
  });

  it('spawns git in one adapter only', () => {
    expect(
      files
        .filter((f) => /(execFile|spawn|execFileSync)\(\s*'git'/.test(f.text))
        .map((f) => f.path),
    ).toEqual(['src/adapters/git/exec.ts']);
  });
});
