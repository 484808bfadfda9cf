import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type Docker from 'dockerode';
import { resultsSchema } from '../../src/contracts/results.js';
import type { ResolvedSource } from '../../src/contracts/environment.js';
import { environmentDigest } from '../../src/stages/harvest/environment-digest.js';
import { downloadWheels } from '../../src/adapters/environments/wheels.js';
import { ensureWheelFiles, HostSources } from '../../src/adapters/environments/sources.js';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { cacheLayout } from '../../src/adapters/stores/layout.js';
import { FsSuiteReader } from '../../src/adapters/suite/reader.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { buildWheel, gitRepo, PYTEST, writeTree } from '../helpers/sources.js';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';

/** calc.turns(n) loops n times in v1 and 2n times in v2: the oracle tells which code ran. */
const calc = (factor: number) => ({
  'calc/__init__.py': '__version__ = "1.0"\n',
  'calc/core.py': [
    'def turns(n):',
    '    count = 0',
    `    for _ in range(${factor} * n):`,
    '        count += 1',
    '    return count',
    '',
  ].join('\n'),
});

const loopInstance = (id: string, environment: string, extra: Record<string, unknown> = {}) => ({
  id,
  kind: 'S2_Loops',
  environment,
  tests: ['test_calc.py::test_turns'],
  target: { file: 'calc/core.py', function: 'turns' },
  query: { invocation: 1, loop_line: 3 },
  timeout_seconds: 60,
  ...extra,
});
const TEST = 'from calc.core import turns\n\n\ndef test_turns():\n    assert turns(3) > 0\n';

function oracles(out: string): Record<string, unknown> {
  const results = resultsSchema.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));
  return Object.fromEntries(results.instances.map((r) => [r.id, r.oracle]));
}

describe('environments from any source, harvested in a real engine', () => {
  let docker: Docker;
  let endpoint: RunningServer;
  beforeAll(async () => {
    docker = await requireDocker();
    endpoint = await startHeuristicServer();
  });
  afterAll(() => endpoint.close());

  const run = (suite: string, cache: string, out: string) =>
    runCli([
      'run',
      '--instances',
      suite,
      '--endpoint',
      endpoint.url,
      '--model',
      HEURISTIC_MODEL,
      '--cache',
      cache,
      '--out',
      out,
    ]);

  it('git: two commits with the same version string get their own oracles, each from its own code', async () => {
    const suite = tempDir('tg-git-suite-');
    const [v1, v2] = gitRepo(join(suite, 'repos', 'calc'), [calc(1), calc(2)]);
    const env = (commit: string) => ({
      python: '3.11',
      packages: PYTEST,
      git: { repo: 'repos/calc', commit },
    });
    writeTree(suite, {
      'environments/calc-v1.json': JSON.stringify({ name: 'calc-v1', ...env(v1!) }),
      'environments/calc-v2.json': JSON.stringify({ name: 'calc-v2', ...env(v2!) }),
      'cases/v1/instance.json': JSON.stringify(loopInstance('calc-v1-turns', 'calc-v1')),
      'cases/v1/test_calc.py': TEST,
      'cases/v2/instance.json': JSON.stringify(loopInstance('calc-v2-turns', 'calc-v2')),
      'cases/v2/test_calc.py': TEST,
    });
    const cache = tempDir('tg-git-cache-');
    const done = await run(suite, cache, join(cache, 'out'));
    expect(done.stderr).not.toMatch(/^tracegate: /m);
    expect(done.code).toBe(0);
    expect(oracles(join(cache, 'out'))).toEqual({
      'calc-v1-turns': { loop_iteration_count: 3 },
      'calc-v2-turns': { loop_iteration_count: 6 },
    });
    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(cache, 'out', 'results.json'), 'utf8')),
    );
    const digests = results.harvest.environments!.map((e) => e.digest);
    expect(new Set(digests).size).toBe(2);
    expect(results.harvest.environments!.map((e) => e.source)).toEqual(['git', 'git']);
  });

  it('image: a prebuilt image with the repository at /testbed is harvested as it is', async () => {
    const context = mkdtempSync(join(tmpdir(), 'tg-testbed-'));
    const tag = 'tracegate-test/testbed:calc';
    try {
      await downloadWheels(
        { name: 'testbed', python: '3.11', packages: PYTEST },
        join(context, 'wheels'),
      );
      writeTree(join(context, 'testbed'), {
        ...calc(5),
        'pytest.ini': '[pytest]\naddopts = -p no:randomly\n',
        'tests/test_calc.py': TEST,
      });
      writeFileSync(
        join(context, 'Dockerfile'),
        [
          'FROM tracegate/base:bookworm',
          'COPY wheels /tmp/wheels',
          `RUN python3 -m venv /opt/py && /opt/py/bin/pip install --quiet --no-index --find-links /tmp/wheels ${PYTEST.join(' ')} && rm -rf /tmp/wheels`,
          'COPY testbed /testbed',
          'RUN chmod -R a+rX /testbed',
          '',
        ].join('\n'),
      );
      execFileSync('docker', ['build', '--quiet', '--network', 'none', '-t', tag, context]);
      const suite = tempDir('tg-image-suite-');
      writeTree(suite, {
        'environments/testbed.json': JSON.stringify({
          name: 'testbed',
          image: { ref: tag, python: '/opt/py/bin/python', workdir: '/testbed' },
        }),
        'cases/calc/instance.json': JSON.stringify({
          ...loopInstance('testbed-turns', 'testbed', { cwd: 'checkout' }),
          tests: ['tests/test_calc.py::test_turns'],
        }),
      });
      const cache = tempDir('tg-image-cache-');
      const done = await run(suite, cache, join(cache, 'out'));
      expect(done.stderr).not.toMatch(/^tracegate: /m);
      expect(done.code).toBe(0);
      expect(oracles(join(cache, 'out'))).toEqual({
        'testbed-turns': { loop_iteration_count: 15 },
      });
      const { Id } = await docker.getImage(tag).inspect();
      const results = resultsSchema.parse(
        JSON.parse(readFileSync(join(cache, 'out', 'results.json'), 'utf8')),
      );
      expect(results.harvest.environments![0]).toMatchObject({ source: 'image' });
      expect(results.harvest.environments![0]!.runtime).toContain(Id.slice(0, 19));
    } finally {
      rmSync(context, { recursive: true, force: true });
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => {});
    }
  });
});

describe('packages: the digest follows the wheel bytes', () => {
  it('a wheel rebuilt with the same version and different bytes gets a new digest', async () => {
    const suite = tempDir('tg-wheel-suite-');
    const recipe = { name: 'tiny', python: '3.11', packages: ['wheels/tiny-1.0-py3-none-any.whl'] };
    writeTree(suite, { 'environments/tiny.json': JSON.stringify(recipe) });
    const digestNow = async () => {
      const sources = new HostSources(
        cacheLayout(tempDir('tg-wheel-cache-')),
        new FsSuiteReader(suite),
        () => {},
      );
      const source = (await sources.resolve(recipe, 'environments')) as ResolvedSource;
      const runtime = { backend: 'docker' as const, image: 'python:3.11-slim', note: '' };
      return environmentDigest(recipe, source, runtime);
    };
    buildWheel(join(suite, 'environments', 'wheels'), 'tiny', '1.0', { 'tiny.py': 'X = 1\n' });
    const first = await digestNow();
    expect(await digestNow()).toBe(first);
    buildWheel(join(suite, 'environments', 'wheels'), 'tiny', '1.0', { 'tiny.py': 'X = 2\n' });
    expect(await digestNow()).not.toBe(first);
  });

  it('a lock restored with the shared cache resolves without a download; the files come, checked, when an image is built', async () => {
    const suite = tempDir('tg-lock-suite-');
    const recipe = { name: 'pinned', python: '3.11', packages: PYTEST };
    const runtime = { backend: 'docker' as const, image: 'python:3.11-slim', note: '' };
    const first = cacheLayout(tempDir('tg-lock-a-'));
    const resolved = (await new HostSources(first, new FsSuiteReader(suite), () => {}).resolve(
      recipe,
      'environments',
    )) as Extract<ResolvedSource, { kind: 'packages' }>;
    expect(readdirSync(first.locks)).toHaveLength(1);

    // A fresh runner: only the shared paths restored. `false` as its python: any download fails.
    const fresh = cacheLayout(tempDir('tg-lock-b-'));
    cpSync(first.locks, fresh.locks, { recursive: true });
    const offline = new HostSources(fresh, new FsSuiteReader(suite), () => {}, 'false');
    const again = (await offline.resolve(recipe, 'environments')) as typeof resolved;
    expect(environmentDigest(recipe, again, runtime)).toBe(
      environmentDigest(recipe, resolved, runtime),
    );
    expect(again.wheels.some((w) => existsSync(w.path))).toBe(false);
    await ensureWheelFiles(recipe, again.wheels);
    expect(again.wheels.every((w) => existsSync(w.path))).toBe(true);
    // Fetched once: the next resolution on this runner reads the files through their own lock.
    const later = (await offline.resolve(recipe, 'environments')) as typeof resolved;
    expect(later.wheels).toEqual(again.wheels);
    expect(existsSync(join(dirname(again.wheels[0]!.path), 'lock.json'))).toBe(true);

    // A lock whose pin the index does not serve: the build says so, never builds on other bytes.
    const forged = cacheLayout(tempDir('tg-lock-c-'));
    cpSync(first.locks, forged.locks, { recursive: true });
    const file = join(forged.locks, readdirSync(forged.locks)[0]!);
    const lock = JSON.parse(readFileSync(file, 'utf8')) as { name: string; sha256: string }[];
    lock[0]!.sha256 = 'f'.repeat(64);
    writeFileSync(file, JSON.stringify(lock));
    const wrong = (await new HostSources(
      forged,
      new FsSuiteReader(suite),
      () => {},
      'false',
    ).resolve(recipe, 'environments')) as typeof resolved;
    await expect(ensureWheelFiles(recipe, wrong.wheels)).rejects.toThrow(
      new RegExp(
        `the index no longer serves ${lock[0]!.name.replace(/[.+]/g, '\\$&')} as the cached lock pins it`,
      ),
    );
  });

  it('a wheel path that leaves the suite is refused, naming it', async () => {
    const suite = tempDir('tg-wheel-out-');
    const recipe = { name: 'evil', python: '3.11', packages: ['../../../../etc/passwd.whl'] };
    const sources = new HostSources(cacheLayout(tempDir()), new FsSuiteReader(suite), () => {});
    await expect(sources.resolve(recipe, 'environments')).rejects.toThrow(/passwd\.whl/);
  });
});
