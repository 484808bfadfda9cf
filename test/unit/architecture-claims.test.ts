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

  it('has no source file over 400 lines in src/ or scripts/ (the tracer is checked below)', () => {
    const scripts = readdirSync(join(ROOT, 'scripts'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(mjs|ts|py|sh)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name));
    const long = [...files.map((f) => join(ROOT, f.path)), ...scripts]
      .map((path) => ({
        path: relative(ROOT, path),
        lines: readFileSync(path, 'utf8').split('\n').length - 1,
      }))
      .filter((f) => f.lines > 400);
    expect(long).toEqual([]);
  });

  it('spawns git in one adapter only', () => {
    expect(
      files
        .filter((f) => /(execFile|spawn|execFileSync)\(\s*'git'/.test(f.text))
        .map((f) => f.path),
    ).toEqual(['src/adapters/git/exec.ts']);
  });
});

/** The tracer's Python sources under `dir` (paths relative to tracer/), byte-code and its own tests left out. */
function tracerSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === '__pycache__' || e.name === 'tests'
      ? []
      : e.isDirectory()
        ? tracerSources(join(dir, e.name))
        : e.name.endsWith('.py')
          ? [relative(join(ROOT, 'tracer'), join(dir, e.name))]
          : [],
  );
}

/** What tracer/README.md says of the tracer's package, checked against it (issue 44: it was one flat folder). */
describe('tracer/README.md is true of tracer/', () => {
  const TRACER = join(ROOT, 'tracer');
  const PACKAGE = join(TRACER, 'tracegate_tracer');
  const readme = readFileSync(join(TRACER, 'README.md'), 'utf8');
  const filesSection = readme.slice(
    readme.indexOf('## Files\n'),
    readme.indexOf('\n## ', readme.indexOf('## Files\n') + 1),
  );
  /** The paths named in the first cell of the Files tables' rows. */
  const listed = filesSection
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) =>
      [...(line.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''),
    );
  const sources = tracerSources(TRACER);
  const modules = sources.filter(
    (p) => p.startsWith('tracegate_tracer/') && !p.endsWith('/__init__.py'),
  );

  it('keeps at most 12 entries at the top of tracegate_tracer/ (modules and packages, __init__.py aside)', () => {
    const top = readdirSync(PACKAGE, { withFileTypes: true }).filter(
      (e) =>
        e.name !== '__init__.py' &&
        e.name !== '__pycache__' &&
        (e.isDirectory() || e.name.endsWith('.py')),
    );
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThanOrEqual(12);
  });

  it('lists every module and boot file in its Files tables, once, and nothing that is gone', () => {
    expect(modules.length).toBeGreaterThan(40);
    const unlisted = sources.filter((p) => !p.endsWith('/__init__.py') && !listed.includes(p));
    expect(unlisted).toEqual([]);
    expect(listed.filter((p, i) => listed.indexOf(p) !== i)).toEqual([]);
    const gone = listed.filter((p) => p.endsWith('.py') && !sources.includes(p));
    expect(gone).toEqual([]);
  });

  it('has no source file over 400 lines', () => {
    const long = sources
      .map((p) => ({ p, lines: readFileSync(join(TRACER, p), 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 400);
    expect(long).toEqual([]);
  });

  it("imports no tracer module's private name into another", () => {
    const privateImports = sources.flatMap((p) =>
      [
        ...readFileSync(join(TRACER, p), 'utf8').matchAll(
          /^\s*from\s+(\S+)\s+import\s+(\([^)]*\)|.*)$/gm,
        ),
      ]
        .map(([, module = '', names = '']) => ({ module, names }))
        .filter(({ module }) => module.startsWith('.') || module.startsWith('tracegate_tracer'))
        .flatMap(({ module, names }) =>
          names
            .replace(/[()]|#.*$/gm, '')
            .split(',')
            .map((name) => name.trim().split(/\s+/)[0] ?? '')
            .filter((name) => name.startsWith('_'))
            .map((name) => `${p}: ${module}.${name}`),
        ),
    );
    expect(privateImports).toEqual([]);
  });

  it('keeps the instance parser child free of the tracer (it runs with the tracer off sys.path)', () => {
    const child = readFileSync(join(PACKAGE, 'parsers', 'parser_child.py'), 'utf8');
    const imports = child.split('\n').filter((line) => /^\s*(from|import)\s/.test(line));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((line) => /^\s*from\s+\.|tracegate_tracer/.test(line))).toEqual([]);
  });
});
