import type { OverlayFile, SourceView } from '../../src/contracts/source-view.js';
import { REPO_TOOLS, runTool, type ToolOutcome } from '../../src/stages/tools/tools.js';
import { SourceTree } from '../../src/stages/tools/tree.js';

const ORIGIN = '/opt/venv/lib/python3.11/site-packages';

const API = [
  'import os',
  '',
  'class Session:',
  '    def get(self):',
  '        return 1',
  '',
  'def request(method):',
  '    return method',
  '',
  'async  def fetch():',
  '    pass',
  '',
].join('\n');

function view(extra: Partial<SourceView> = {}): SourceView {
  return {
    version: 1,
    origin: ORIGIN,
    files: {
      'README.md': 'hello\n',
      'pkg/__init__.py': '',
      'pkg/api.py': API,
      'pkg/util/strings.py': 'def shout(s):\n    return s.upper()\n',
      'tests/test_api.py': 'def test_old():\n    pass\n',
      ...extra.files,
    },
    links: {
      evil: '/etc',
      evil2: '../../outside',
      'pkg/climb': '../../x',
      alias: `${ORIGIN}/pkg`,
      near: `${ORIGIN}-evil/pkg`,
      'pkg/readme': '../README.md',
      'pkg/escape': `${ORIGIN}/../../../../etc`,
      loop_a: 'loop_b',
      loop_b: 'loop_a',
      ...extra.links,
    },
    omitted: { 'pkg/data.bin': 'binary', ...extra.omitted },
  };
}

const tree = new SourceTree(view());

function call(
  name: string,
  args: unknown,
  resultBytes = 64_000,
  on: SourceTree = tree,
): ToolOutcome {
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return runTool(on, { id: 'c1', name, arguments: text }, { resultBytes });
}

describe('paths the model writes stay inside the repository', () => {
  it.each([
    ['../../../../etc/passwd', /has a "\.\." part/],
    ['a/../../x', /has a "\.\." part/],
    ['pkg/../pkg/api.py', /has a "\.\." part/],
    ['/proc/self/environ', /outside the repository; give a path relative to its root, e\.g\./],
    ['/etc/passwd', /outside the repository; give a path relative to its root/],
    ['evil', /"evil" is a symbolic link to a path outside the repository \("\/etc"\)/],
    ['evil/passwd', /"evil" is a symbolic link to a path outside the repository/],
    ['evil2', /"evil2" is a symbolic link to a path outside the repository/],
    ['evil2/x', /"evil2" is a symbolic link to a path outside the repository/],
    ['pkg/climb', /"pkg\/climb" is a symbolic link to a path outside/],
    ['near/api.py', /"near" is a symbolic link to a path outside/], // the origin's prefix, not below it
    ['pkg/escape/passwd', /"pkg\/escape" is a symbolic link to a path outside/],
    ['loop_a', /more than 8 symbolic links \(a loop\?\)/],
    ['pkg\\api.py', /backslash/],
    ['pkg/api.py\u0000', /control character/],
    ['pkg/\u001b[2Japi.py', /control character/],
    ['a×1001', /1001 characters long; paths are at most 1000/],
  ])('refuses %j', (label, why) => {
    const path = label === 'a×1001' ? 'a'.repeat(1001) : label;
    const found = tree.lookup(path);
    expect(found).toEqual({ kind: 'refused', message: expect.stringMatching(why) });
    for (const [tool, args] of [
      ['read_file', { path }],
      ['list_dir', { path }],
      ['search', { pattern: 'root', path }],
      ['repo_map', { path }],
    ] as const) {
      const outcome = call(tool, args);
      expect(outcome.status).toBe('refused');
      expect(outcome.content).not.toMatch(/root:x:0/);
    }
  });

  it('suggests the path from the root when an absolute path lies in the origin', () => {
    const found = tree.lookup(`${ORIGIN}/pkg/api.py`);
    expect(found.kind).toBe('refused');
    expect(found.kind === 'refused' && found.message).toMatch(/e\.g\. "pkg\/api\.py"/);
  });

  it('takes "", "." and "./" for the root, and drops empty and "." parts', () => {
    const root = tree.lookup('');
    expect(root.kind).toBe('dir');
    expect(tree.lookup('.')).toEqual(root);
    expect(tree.lookup('./')).toEqual(root);
    expect(tree.lookup('./pkg//util/./strings.py/')).toMatchObject({
      kind: 'file',
      path: 'pkg/util/strings.py',
    });
  });

  it('follows links that stay inside: relative, and absolute into the origin', () => {
    expect(tree.lookup('alias/api.py')).toEqual({ kind: 'file', path: 'pkg/api.py', text: API });
    expect(tree.lookup('alias')).toMatchObject({ kind: 'dir', path: 'pkg' });
    expect(tree.lookup('pkg/readme')).toMatchObject({ kind: 'file', path: 'README.md' });
    expect(call('read_file', { path: 'alias/util/strings.py' }).content).toMatch(
      /^File "pkg\/util\/strings\.py"/,
    );
  });

  it('follows 8 links in a chain and refuses a 9th', () => {
    const links: Record<string, string> = { l8: 'README.md' };
    for (let i = 0; i < 8; i++) links[`l${i}`] = `l${i + 1}`;
    const chained = new SourceTree(view({ links }));
    expect(chained.lookup('l1')).toMatchObject({ kind: 'file', path: 'README.md' });
    expect(chained.lookup('l0').kind).toBe('refused');
  });

  it('says what to do when a path is missing or goes through a file', () => {
    expect(tree.lookup('pkg/nope.py')).toEqual({
      kind: 'missing',
      message: expect.stringMatching(/no "pkg\/nope\.py".*list_dir "pkg"/),
    });
    expect(tree.lookup('pkg/api.py/x')).toEqual({
      kind: 'missing',
      message: expect.stringMatching(/"pkg\/api\.py" is a file, not a directory/),
    });
    const outcome = call('read_file', { path: 'etc/passwd' });
    expect(outcome.status).toBe('error');
    expect(outcome.content).toMatch(/list_dir "\."/);
  });

  it('shows an omitted file as not shown, and refuses to read it', () => {
    expect(tree.lookup('pkg/data.bin')).toEqual({
      kind: 'omitted',
      path: 'pkg/data.bin',
      why: 'binary',
    });
    expect(call('read_file', { path: 'pkg/data.bin' })).toMatchObject({ status: 'refused' });
  });
});

describe('list_dir and repo_map', () => {
  it('lists entries by name: directories with "/", links with their target, omitted files why', () => {
    expect(call('list_dir', { path: 'pkg' })).toEqual({
      status: 'ok',
      truncated: false,
      bytes: expect.any(Number),
      content: [
        'Directory pkg (7 entries):',
        '__init__.py',
        'api.py',
        'climb -> ../../x',
        'data.bin (not shown: binary)',
        `escape -> ${ORIGIN}/../../../../etc`,
        'readme -> ../README.md',
        'util/',
      ].join('\n'),
    });
    expect(call('list_dir', { path: '.' }).content.split('\n').slice(1)).toEqual([
      'README.md',
      'alias -> ' + `${ORIGIN}/pkg`,
      'evil -> /etc',
      'evil2 -> ../../outside',
      'loop_a -> loop_b',
      'loop_b -> loop_a',
      `near -> ${ORIGIN}-evil/pkg`,
      'pkg/',
      'tests/',
    ]);
  });

  it('sends a file to read_file and a directory to list_dir', () => {
    expect(call('list_dir', { path: 'README.md' })).toMatchObject({
      status: 'error',
      content: expect.stringMatching(/is a file, not a directory; read it with read_file/),
    });
    expect(call('read_file', { path: 'pkg' })).toMatchObject({
      status: 'error',
      content: expect.stringMatching(/is a directory, not a file; list it with list_dir/),
    });
  });

  it('maps directories and the top-level names of each Python file', () => {
    expect(call('repo_map', { path: 'pkg' }).content).toBe(
      [
        'pkg/ (+1 other file)',
        'pkg/__init__.py',
        'pkg/api.py: class Session, def request, async def fetch',
        'pkg/climb -> ../../x',
        `pkg/escape -> ${ORIGIN}/../../../../etc`,
        'pkg/readme -> ../README.md',
        'pkg/util/',
        'pkg/util/strings.py: def shout',
      ].join('\n'),
    );
    expect(call('repo_map', '').content.split('\n')[0]).toBe('./ (+1 other file)');
  });
});

describe('read_file', () => {
  it('numbers the whole file from 1, and a range by its absolute line numbers', () => {
    const whole = call('read_file', { path: 'pkg/util/strings.py' });
    expect(whole.content).toBe(
      'File "pkg/util/strings.py" (2 lines):\n    1  def shout(s):\n    2      return s.upper()',
    );
    const part = call('read_file', { path: 'pkg/api.py', start_line: 3, end_line: 4 });
    expect(part.content).toBe(
      'File "pkg/api.py", lines 3-4 of 11:\n    3  class Session:\n    4      def get(self):',
    );
    const tail = call('read_file', { path: 'pkg/api.py', start_line: 10, end_line: 99 });
    expect(tail.content.split('\n')).toEqual([
      'File "pkg/api.py", lines 10-11 of 11:',
      '   10  async  def fetch():',
      '   11      pass',
    ]);
  });

  it('keeps a final empty line that is part of the file', () => {
    const t = new SourceTree(view({ files: { 'blank.txt': 'a\n\n' } }));
    expect(call('read_file', { path: 'blank.txt' }, 1000, t).content).toBe(
      'File "blank.txt" (2 lines):\n    1  a\n    2  ',
    );
    expect(call('read_file', { path: 'pkg/__init__.py' }).content).toBe(
      'File "pkg/__init__.py" is empty.',
    );
  });

  it('says how many lines a file has when the start is past its end', () => {
    expect(call('read_file', { path: 'pkg/api.py', start_line: 12 })).toMatchObject({
      status: 'error',
      content: expect.stringMatching(/has 11 lines; start_line 12 is past its end/),
    });
    expect(call('read_file', { path: 'pkg/api.py', start_line: 5, end_line: 4 }).status).toBe(
      'error',
    );
  });

  it.each([
    [{ start_line: 0, path: 'pkg/api.py' }, /argument "start_line"/],
    [
      { path: 'pkg/api.py', start_line: '3' },
      /argument "start_line": expected number, received string/,
    ],
    [{ path: 'pkg/api.py', start_line: 1.5 }, /argument "start_line"/],
    [{}, /argument "path" is required/],
    [{ path: 7 }, /argument "path": expected string/],
    [{ path: 'a', lines: '1-3' }, /takes no argument "lines"/],
  ])('answers a wrong argument %j with an error naming it and an example', (args, why) => {
    const outcome = call('read_file', args);
    expect(outcome.status).toBe('error');
    expect(outcome.content).toMatch(why);
    expect(outcome.content).toMatch(/Call it again with arguments like \{"path"/);
  });
});

describe('search', () => {
  it('finds a fixed string in path order, regex characters taken literally', () => {
    expect(call('search', { pattern: 'def ' }).content).toBe(
      [
        'pkg/api.py:4:     def get(self):',
        'pkg/api.py:7: def request(method):',
        'pkg/api.py:10: async  def fetch():',
        'pkg/util/strings.py:1: def shout(s):',
        'tests/test_api.py:1: def test_old():',
      ].join('\n'),
    );
    expect(call('search', { pattern: 'request(' }).content).toBe(
      'pkg/api.py:7: def request(method):',
    );
    expect(call('search', { pattern: 'def ', path: 'pkg/util' }).content).toBe(
      'pkg/util/strings.py:1: def shout(s):',
    );
  });

  it('matches a regular expression with regex true', () => {
    expect(call('search', { pattern: '^(async +)?def \\w+\\(', regex: true }).content).toBe(
      [
        'pkg/api.py:7: def request(method):',
        'pkg/api.py:10: async  def fetch():',
        'pkg/util/strings.py:1: def shout(s):',
        'tests/test_api.py:1: def test_old():',
      ].join('\n'),
    );
    expect(call('search', { pattern: 'nothing\\d', regex: true }).content).toMatch(
      /^No line under \. matches/,
    );
  });

  it.each([
    '(a+)+',
    '(a*)*',
    '(?:\\w+\\s?)*x',
    '((ab)?c)+',
    '(a{1,3}){2,}',
    '(a|aa)+b',
    '(x)\\1',
    '(?<q>["\'])\\k<q>',
    'a×201',
  ])('refuses the pattern %j, and says what to do', (label) => {
    const pattern = label === 'a×201' ? 'a'.repeat(201) : label;
    const outcome = call('search', { pattern, regex: true });
    expect(outcome.status).toBe('refused');
    expect(outcome.content).toMatch(/search for a fixed string \(regex false\)/);
  });

  it.each(['(ab)+', '(foo)?\\d+', '[(a+)]+', '(def|class) \\w+', 'x{2}\\{y'])(
    'runs the harmless pattern %j',
    (pattern) => {
      expect(call('search', { pattern, regex: true }).status).toBe('ok');
    },
  );

  it('answers an invalid pattern or an empty one with an error', () => {
    expect(call('search', { pattern: '(?P<n>x)', regex: true }).status).toBe('error');
    expect(call('search', { pattern: '' }).status).toBe('error');
  });

  it('matches a regular expression against the first 500 characters of a line only', () => {
    const t = new SourceTree(view({ files: { 'long.py': `${'x'.repeat(600)}needle\n` } }));
    expect(call('search', { pattern: 'needle', regex: true }, 64_000, t).content).toMatch(/^No/);
    const fixed = call('search', { pattern: 'needle' }, 64_000, t).content;
    expect(fixed).toBe(`long.py:1: ${'x'.repeat(500)}`);
  });

  it('stops after 200 matches with a note', () => {
    const many = Array.from({ length: 250 }, (_, i) => `hit ${i}`).join('\n');
    const t = new SourceTree(view({ files: { 'many.txt': many } }));
    const lines = call('search', { pattern: 'hit' }, 64_000, t).content.split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe('many.txt:200: hit 199');
    expect(lines[200]).toMatch(/^\[stopped after 200 matches; narrow the pattern/);
  });
});

describe('a reply over the limit', () => {
  const big = Array.from({ length: 400 }, (_, i) => `line ${i} é 😀 ${'y'.repeat(i % 37)}`);
  const t = new SourceTree(view({ files: { 'big.txt': big.join('\n') } }));
  const MARKER = /^\[… truncated: showed (\d+) of (\d+) bytes; (ask for a narrower|narrow)/;

  it('is cut at a line boundary, within the limit, with a marker', () => {
    const full = call('read_file', { path: 'big.txt' }, 1_000_000, t);
    expect(full.truncated).toBe(false);
    expect(full.bytes).toBe(Buffer.byteLength(full.content));
    const cut = call('read_file', { path: 'big.txt' }, 2000, t);
    expect(cut.truncated).toBe(true);
    expect(cut.bytes).toBe(Buffer.byteLength(cut.content));
    expect(cut.bytes).toBeLessThanOrEqual(2000);
    const lines = cut.content.split('\n');
    const marker = MARKER.exec(lines.pop()!);
    expect(marker).not.toBeNull();
    expect(Number(marker![2])).toBe(full.bytes);
    expect(Number(marker![1])).toBe(Buffer.byteLength(lines.join('\n')));
    expect(full.content.startsWith(`${lines.join('\n')}\n`)).toBe(true); // whole lines only
  });

  it('never splits a UTF-8 character, at any limit', () => {
    const oneLine = new SourceTree(view({ files: { 'wide.txt': 'é😀'.repeat(300) } }));
    for (let limit = 100; limit < 400; limit++) {
      // A file's lines, and one long matching line: no line end fits, so the cut is mid-line.
      for (const [on, name, args] of [
        [t, 'read_file', { path: 'big.txt' }],
        [oneLine, 'search', { pattern: 'é' }],
      ] as const) {
        const outcome = call(name, args, limit, on);
        expect(outcome.bytes).toBeLessThanOrEqual(limit);
        expect(outcome.content).not.toContain('\uFFFD');
        expect(outcome.content.split('\n').pop()).toMatch(MARKER);
      }
    }
  });
});

describe('calls the model gets wrong', () => {
  it.each([
    ['{"path": ', /not valid JSON/],
    ['[1, 2]', /must be a JSON object/],
    ['"pkg"', /must be a JSON object/],
    ['null', /must be a JSON object/],
  ])('answers the arguments %j with an error', (args, why) => {
    expect(call('read_file', args)).toMatchObject({
      status: 'error',
      content: expect.stringMatching(why),
    });
  });

  it('answers an unknown tool with the names of the tools', () => {
    expect(call('run_shell', { cmd: 'cat /etc/passwd' })).toMatchObject({
      status: 'error',
      content:
        'There is no tool "run_shell"; the tools are: repo_map, list_dir, read_file, search.',
    });
  });

  it('offers four tools whose schemas refuse unknown arguments', () => {
    expect(REPO_TOOLS.map((t) => [t.name, t.parameters.required])).toEqual([
      ['repo_map', []],
      ['list_dir', ['path']],
      ['read_file', ['path']],
      ['search', ['pattern']],
    ]);
    for (const tool of REPO_TOOLS) {
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.parameters).not.toHaveProperty('$schema');
      expect(tool.description).toMatch(/^[A-Z][^.]*\.$/); // one sentence
    }
  });
});

describe('overlay files and determinism', () => {
  const overlay: OverlayFile[] = [
    { path: 'tests/test_api.py', text: 'def test_new():\n    pass\n' },
    { path: 'tests/unit/test_more.py', text: 'def test_more():\n    pass\n' },
    { path: 'evil', text: 'now a file\n' },
  ];

  it('adds overlay files at their paths, winning over the view (a link too)', () => {
    const t = new SourceTree(view(), overlay);
    expect(t.lookup('tests/test_api.py')).toMatchObject({ text: 'def test_new():\n    pass\n' });
    expect(call('list_dir', { path: 'tests' }, 64_000, t).content).toBe(
      'Directory tests (2 entries):\ntest_api.py\nunit/',
    );
    expect(t.lookup('evil')).toEqual({ kind: 'file', path: 'evil', text: 'now a file\n' });
    expect(() => new SourceTree(view(), [{ path: '../x.py', text: '' }])).toThrow(/overlay/);
  });

  it('gives the same bytes for the same tree and call, whatever the order of the view', () => {
    const v = view();
    const reversed: SourceView = {
      ...v,
      files: Object.fromEntries(Object.entries(v.files).reverse()),
      links: Object.fromEntries(Object.entries(v.links).reverse()),
    };
    const a = new SourceTree(v, overlay);
    const b = new SourceTree(reversed, [...overlay].reverse());
    for (const [name, args] of [
      ['repo_map', {}],
      ['list_dir', { path: '.' }],
      ['search', { pattern: 'def' }],
      ['read_file', { path: 'pkg/api.py' }],
      ['read_file', { path: 'evil2' }],
    ] as const) {
      expect(call(name, args, 300, b)).toEqual(call(name, args, 300, a));
      expect(call(name, args, 300, a)).toEqual(call(name, args, 300, a));
    }
  });
});
