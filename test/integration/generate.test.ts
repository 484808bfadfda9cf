import {
  cpSync,
  mkdirSync,
  symlinkSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultsSchema } from '../../src/contracts/results.js';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
} from '../../src/adapters/heuristic-model/server.js';
import { loadSuite } from '../../src/adapters/suite/load.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/sources.js';
import { requireDocker } from '../helpers/docker.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = join(ROOT, 'benchmark', 'more-itertools');

function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

describe('tracegate generate (real harvests in Docker)', () => {
  const work = tempDir('tg-generate-');
  const tests = join(work, 'tests');
  const generate = (out: string, cache: string, ...extra: string[]) =>
    runCli([
      'generate',
      '--environment',
      join(PACKAGE, 'environment.json'),
      '--tests',
      tests,
      '--out',
      out,
      '--packages',
      'more_itertools',
      '--targets-per-file',
      '3',
      '--max',
      '40',
      '--cache',
      cache,
      ...extra,
    ]);

  beforeAll(async () => {
    await requireDocker();
    mkdirSync(tests);
    cpSync(
      join(PACKAGE, 'tests', 'test_more_itertools_windows.py'),
      join(tests, 'test_more_itertools_windows.py'),
    );
  });

  // The first two generate runs (one seed, separate caches) go side by side: much of each is one
  // container's scouting, so together they fill both cores (136 s and 138 s one after the other,
  // 2026-12-06) — and a generator whose output depended on the load would show it here. Each test
  // awaits its own run; each limit guards against a hang, not a speed.
  let runs: ReturnType<typeof generate>[] = [];
  const started = () =>
    (runs = runs.length
      ? runs
      : [
          generate(join(work, 'out1'), join(work, 'cache1')),
          generate(join(work, 'out2'), join(work, 'cache2')),
        ]);

  it('writes a suite that loads, its oracles cached under the written keys', async () => {
    const first = await started()[0]!;
    expect(first.stderr).not.toMatch(/^tracegate: /m);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^\d+ instance\(s\) kept of \d+ candidate\(s\): /m);
    // The variant screen (default epoch 0): every kept instance was searched, and some were not kept.
    expect(first.stderr).toMatch(/Variant screen, round 1: searching \d+ instance\(s\) at epoch 0/);
    const report = JSON.parse(
      readFileSync(join(work, 'out1', 'more-itertools', 'generate-report.json'), 'utf8'),
    ) as { variantScreen?: number; rejected: { rule: string; detail: string }[] };
    expect(report.variantScreen).toBe(0);
    expect(report.rejected.some((r) => r.rule === 'no-variant')).toBe(true);
    const suite = loadSuite(join(work, 'out1'));
    expect(suite.rejected).toEqual([]);
    expect(suite.instances.length).toBeGreaterThanOrEqual(20);
    expect(new Set(suite.instances.map((l) => l.instance.kind)).size).toBeGreaterThanOrEqual(10);
    // Every target is the package's code, never the test file's.
    expect(suite.instances.every((l) => l.instance.target.file.startsWith('more_itertools/'))).toBe(
      true,
    );
    // One test file serves every instance of its directory.
    expect(new Set(suite.instances.map((l) => l.dir)).size).toBe(1);

    // The oracles are cached under the written instances' keys: harvesting the suite harvests nothing.
    const harvest = await runCli([
      'harvest',
      '--instances',
      join(work, 'out1'),
      '--cache',
      join(work, 'cache1'),
    ]);
    expect(harvest.stdout).toContain(
      `oracles: ${suite.instances.length} cached, 0 harvested, 0 failed`,
    );
  }, 600_000);

  it('gives byte-identical files for the same seed (separate caches)', async () => {
    const second = await started()[1]!;
    expect(second.code).toBe(0);
    const a = tree(join(work, 'out1'));
    const b = tree(join(work, 'out2'));
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes)).toBe(true);

    // Regenerating over a suite keeps what other generators wrote beside it (world-model and bug
    // kinds) and removes what an earlier generation left that is no longer kept.
    const dir = join(work, 'out2', 'more-itertools', 'test_more_itertools_windows');
    const plant = (name: string, kind: string) =>
      writeFileSync(join(dir, name), JSON.stringify({ id: name, kind }));
    plant('w1.instance.json', 'W1_Outcome');
    plant('b1.instance.json', 'B1_BuggyIO');
    plant('stale.instance.json', 'S2_Loops');
    const again = await generate(join(work, 'out2'), join(work, 'cache2'));
    expect(again.code).toBe(0);
    const left = readdirSync(dir);
    expect(left).toEqual(expect.arrayContaining(['w1.instance.json', 'b1.instance.json']));
    expect(left).not.toContain('stale.instance.json');
  }, 900_000);

  it('chooses differently among equals with another seed', async () => {
    const a = tree(join(work, 'out1'));
    const other = await generate(
      join(work, 'out3'),
      join(work, 'cache1'),
      '--seed',
      '7',
      '--variant-screen',
      'off',
    );
    expect(other.code).toBe(0);
    const c = tree(join(work, 'out3'));
    expect([...c.keys()].filter((k) => k.endsWith('.instance.json'))).not.toEqual(
      [...a.keys()].filter((k) => k.endsWith('.instance.json')),
    );
  }, 600_000);

  it('asks fresh variants of the generated suite, deterministic per epoch', async () => {
    const server = await startHeuristicServer();
    const variants = (epoch: string, out: string, cache = 'cache1') =>
      runCli([
        'run',
        '--instances',
        join(work, 'out1'),
        '--cache',
        join(work, cache),
        '--endpoint',
        server.url,
        '--model',
        HEURISTIC_MODEL,
        '--variants',
        'add 12',
        '--variant-epoch',
        epoch,
        '--out',
        join(work, out),
      ]);
    try {
      const first = await variants('3', 'v3a');
      expect(first.code).toBe(0);
      const a = resultsSchema.parse(
        JSON.parse(readFileSync(join(work, 'v3a', 'results.json'), 'utf8')),
      );
      const instances = loadSuite(join(work, 'out1')).instances.length;
      expect(a.variants).toMatchObject({ epoch: 3, mode: 'add', tried: 12 });
      const dropped = Object.values(a.variants!.dropped).reduce((x, y) => x + y, 0);
      expect(a.variants!.valid + dropped).toBe(12);
      // Screened at epoch 0, the suite varies at another epoch too.
      expect(a.variants!.valid).toBeGreaterThanOrEqual(9);
      // The instances, and beside them the valid variants under their own ids.
      expect(a.instances).toHaveLength(instances + a.variants!.valid);
      expect(a.instances.filter((r) => r.id.endsWith('@v3'))).toHaveLength(a.variants!.valid);
      expect(first.stderr).toMatch(/Variants at epoch 3: \d+ of \d+ valid/);
      expect(readFileSync(join(work, 'v3a', 'report.md'), 'utf8')).toContain(
        '**Fresh variants** (epoch 3',
      );

      // The same epoch: the same variants, their oracles from the cache.
      const again = await variants('3', 'v3b');
      const b = resultsSchema.parse(
        JSON.parse(readFileSync(join(work, 'v3b', 'results.json'), 'utf8')),
      );
      expect(b.instances.map((r) => [r.id, r.oracleDigest])).toEqual(
        a.instances.map((r) => [r.id, r.oracleDigest]),
      );
      expect(again.stderr).toMatch(/Oracles: \d+ from cache, 0 harvested/);
      // From an empty cache: the same search, the same candidates, byte-identical oracles.
      await variants('3', 'v3c', 'cache-empty');
      const cold = resultsSchema.parse(
        JSON.parse(readFileSync(join(work, 'v3c', 'results.json'), 'utf8')),
      );
      expect(cold.instances.map((r) => [r.id, r.oracleDigest])).toEqual(
        a.instances.map((r) => [r.id, r.oracleDigest]),
      );
      // A variant's oracle is not its original's.
      for (const r of a.instances.filter((x) => x.id.endsWith('@v3')))
        expect(r.oracleDigest).not.toBe(
          a.instances.find((x) => x.id === r.id.replace(/@v3$/, ''))?.oracleDigest,
        );
      // Another epoch: other items, which never pair with epoch 3's.
      await variants('4', 'v4');
      const c = resultsSchema.parse(
        JSON.parse(readFileSync(join(work, 'v4', 'results.json'), 'utf8')),
      );
      expect(
        c.instances.filter((r) => r.id.includes('@v')).every((r) => r.id.endsWith('@v4')),
      ).toBe(true);
    } finally {
      await server.close();
    }
  }, 600_000);

  it('says what is wrong with its inputs', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    const none = await runCli([
      'generate',
      '--environment',
      join(PACKAGE, 'environment.json'),
      '--tests',
      empty,
      '--out',
      join(work, 'x'),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /--tests .*empty holds no test files \(test_\*\.py\): nothing to scout/,
    );

    // A test file that is a link out of the directory (here to a host file) is refused, not copied.
    const linked = join(work, 'linked');
    mkdirSync(linked);
    symlinkSync('/etc/passwd', join(linked, 'test_evil.py'));
    const link = await runCli([
      'generate',
      '--environment',
      join(PACKAGE, 'environment.json'),
      '--tests',
      linked,
      '--out',
      join(work, 'x'),
    ]);
    expect(link.code).toBe(2);
    expect(link.stderr).toMatch(
      /test_evil\.py is a symbolic link; test files must be regular files/,
    );

    const withConftest = join(work, 'conftest');
    mkdirSync(withConftest);
    writeFileSync(join(withConftest, 'conftest.py'), '');
    writeFileSync(join(withConftest, 'test_a.py'), 'def test_a():\n    pass\n');
    const conf = await runCli([
      'generate',
      '--environment',
      join(PACKAGE, 'environment.json'),
      '--tests',
      withConftest,
      '--out',
      join(work, 'x'),
    ]);
    expect(conf.code).toBe(2);
    expect(conf.stderr).toMatch(/has a conftest\.py: each test file must be self-contained/);

    // A failing test file and a package the tests never run: each file says why, and nothing is written.
    const bad = join(work, 'bad');
    mkdirSync(bad);
    writeFileSync(
      join(bad, 'test_fails.py'),
      'import more_itertools\n\n\ndef test_no():\n    assert list(more_itertools.chunked([1, 2, 3], 2)) == []\n',
    );
    const broken = await runCli([
      'generate',
      '--environment',
      join(PACKAGE, 'environment.json'),
      '--tests',
      bad,
      '--out',
      join(work, 'out5'),
      '--packages',
      'more_itertools',
      '--cache',
      join(work, 'cache1'),
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/Scouting test_fails\.py: tests failed: test_fails\.py::test_no/);
    expect(broken.stderr).toMatch(/No candidates: no test file of .* could be scouted/);
    const elsewhere = await runCli([
      'generate',
      '--environment',
      join(PACKAGE, 'environment.json'),
      '--tests',
      tests,
      '--out',
      join(work, 'out6'),
      '--packages',
      'json',
      '--cache',
      join(work, 'cache1'),
    ]);
    expect(elsewhere.stderr).toMatch(/the tests run no function of json/);
  }, 600_000);

  it('writes a private suite from a repository at its HEAD (git.repo "self" when inside it)', async () => {
    const repo = join(work, 'team-repo');
    const [head] = gitRepo(repo, [
      {
        'src/shop/__init__.py': '',
        'src/shop/cart.py':
          'def total(items, prices):\n    amount = 0\n    for name in items:\n        try:\n' +
          '            amount += prices[name]\n        except KeyError:\n            continue\n    return amount\n',
        'README.md': 'a team repository\n',
      },
    ]);
    const teamTests = join(repo, 'bench-tests');
    mkdirSync(teamTests);
    writeFileSync(
      join(teamTests, 'test_cart.py'),
      'from shop.cart import total\n\nPRICES = {"a": 3, "b": 5, "c": 7}\n\n\n' +
        'def test_total():\n    assert total(["a", "x", "c", "b"], PRICES) == 15\n    assert total(["b", "b"], PRICES) == 10\n',
    );
    const out = join(repo, 'private-suite');
    const run = await runCli([
      'generate',
      '--repo',
      repo,
      '--tests',
      teamTests,
      '--out',
      out,
      '--suite',
      'shop',
      '--cache',
      join(work, 'cache1'),
    ]);
    expect(run.stderr).not.toMatch(/^tracegate: /m);
    expect(run.code).toBe(0);
    const recipe = JSON.parse(readFileSync(join(out, 'environments', 'shop.json'), 'utf8'));
    expect(recipe.git).toEqual({
      repo: 'self',
      commit: head,
      install: 'path',
      paths: ['src', '.'],
    });
    const suite = loadSuite(out);
    expect(suite.instances.length).toBeGreaterThanOrEqual(5);
    expect(suite.instances.every((l) => l.instance.target.file === 'shop/cart.py')).toBe(true);
    // The suite runs where it is: its environment resolves the repository holding it.
    const harvest = await runCli(['harvest', '--instances', out, '--cache', join(work, 'cache1')]);
    expect(harvest.stdout).toContain(
      `oracles: ${suite.instances.length} cached, 0 harvested, 0 failed`,
    );
  }, 600_000);
});
