import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { HARVEST_RUNS } from '../../src/stages/harvest/runs.js';
import { resultsSchema } from '../../src/contracts/results.js';
import { packageRoot } from '../../src/paths.js';
import { FIXTURE_SUITE, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FaultyModelServer } from '../helpers/model-server.js';

const CLI = join(packageRoot(), 'dist', 'cli', 'index.js');

/** The fixture suite with its loop test made slow, so a container is surely running. */
function slowSuite(seconds: number): string {
  const suite = join(tempDir('tg-slow-'), 'suite');
  cpSync(FIXTURE_SUITE, suite, { recursive: true });
  const test = join(suite, 'basic', 'fx-loops-collatz', 'test_numbers.py');
  writeFileSync(
    test,
    `import time\n${readFileSync(test, 'utf8').replace('def test_six():', `def test_six():\n    time.sleep(${seconds})`)}`,
  );
  return suite;
}

/** The built CLI as a child process (a real pid, real signals). */
function startCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
    const started = Date.now();
    child.on('exit', (code) => resolve({ code, ms: Date.now() - started }));
  });
  return { child, exited, stderr: () => stderr };
}

/** Containers a process started (by the label every harvest container carries). */
async function containersOf(docker: Docker, pid: number | undefined): Promise<number> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`tracegate.pid=${pid}`] },
  });
  return list.length;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('process and engine faults', () => {
  let docker: Docker;
  let server: FaultyModelServer;
  let url: string;
  beforeAll(async () => {
    docker = await requireDocker();
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run bundle`);
    server = new FaultyModelServer(() => '{"loop_iteration_count": 8}', undefined, {
      delayMs: 3000,
    });
    url = await server.start();
  });
  afterAll(() => server.stop());

  it('Ctrl-C during the harvest removes the containers and writes results marked incomplete', async () => {
    const cache = tempDir('tg-int-');
    const out = join(cache, 'out');
    const run = startCli([
      'run',
      '--instances',
      slowSuite(120),
      '--endpoint',
      url,
      '--model',
      'm',
      '--cache',
      cache,
      '--out',
      out,
    ]);
    await until(async () => (await containersOf(docker, run.child.pid)) > 0);
    run.child.kill('SIGINT');
    const { code, ms } = await run.exited;
    expect(code).toBe(130);
    expect(ms).toBeLessThan(60_000);
    expect(run.stderr()).toMatch(/Interrupted by SIGINT/);
    // One summary, not a failure per instance: nothing is called failed, quarantined or 100%.
    expect(run.stderr()).toMatch(/^Oracles: interrupted — \d+ of 5 instance\(s\) have one/m);
    expect(run.stderr()).not.toMatch(/: error — |quarantined|nondeterministic|\(100%\)|' ok \(/);
    expect(await containersOf(docker, run.child.pid)).toBe(0);
    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
    );
    expect(results.incomplete?.missing).toHaveLength(5);
  }, 300_000);

  it('an interrupted harvest keeps every oracle finished in both runs; its rerun harvests only the rest', async () => {
    // Ten instances whose tests take a second each: interrupted once several have finished.
    const suite = join(tempDir('tg-ten-'), 'suite');
    cpSync(join(FIXTURE_SUITE, 'environments'), join(suite, 'environments'), { recursive: true });
    const source = join(FIXTURE_SUITE, 'basic', 'fx-loops-collatz');
    for (let i = 0; i < 10; i++) {
      const dir = join(suite, 'ten', `fx-second-${i}`);
      cpSync(source, dir, { recursive: true });
      const instance = JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')) as object;
      writeFileSync(
        join(dir, 'instance.json'),
        JSON.stringify({ ...instance, id: `fx-second-${i}` }),
      );
      writeFileSync(
        join(dir, 'test_numbers.py'),
        `import time\nfrom numbers_mod import collatz_steps\n\n\ndef test_six():\n    time.sleep(1)\n` +
          `    assert collatz_steps(6) == 8\n`,
      );
    }
    const cache = tempDir('tg-ten-cache-');
    const args = ['harvest', '--instances', suite, '--cache', cache];
    // The tracer's per-instance `ok` lines are shown with TRACEGATE_VERBOSE=1 only.
    const first = startCli(args, { TRACEGATE_VERBOSE: '1' });
    // Each run's tracer logs `'fx-second-3' ok (…)` as a group finishes: wait until at least two
    // instances finished in both runs (an id logged twice), the condition the test asserts below.
    const doneTwice = () => {
      const seen = new Map<string, number>();
      for (const [, id] of first.stderr().matchAll(/'(fx-second-\d)' ok \(/g))
        seen.set(id!, (seen.get(id!) ?? 0) + 1);
      return [...seen.values()].filter((n) => n >= 2).length;
    };
    await until(() => doneTwice() >= 2);
    first.child.kill('SIGINT');
    const { code } = await first.exited;
    expect(code).toBe(130);
    const kept = Number(
      /(\d+) oracle\(s\) harvested before it are stored/.exec(first.stderr())?.[1],
    );
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(10);
    expect(first.stderr()).toMatch(/rerun the same command to harvest only the \d+ left/);
    const again = execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    expect(again).toMatch(new RegExp(`oracles: ${kept} cached, ${10 - kept} harvested, 0 failed`));
  }, 300_000);

  it('SIGTERM while the endpoint answers keeps the answers so far and lists the missing', async () => {
    const cache = tempDir('tg-term-');
    const out = join(cache, 'out');
    const args = ['--instances', FIXTURE_SUITE, '--cache', cache];
    execFileSync(process.execPath, [CLI, 'harvest', ...args], { stdio: 'ignore' });
    const run = startCli([
      'run',
      ...args,
      '--endpoint',
      url,
      '--model',
      'm',
      '--out',
      out,
      '--concurrency',
      '1',
    ]);
    await until(
      () =>
        existsSync(join(out, 'records.jsonl')) &&
        readFileSync(join(out, 'records.jsonl'), 'utf8').split('\n').filter(Boolean).length >= 1,
    );
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    expect(code).toBe(130);
    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
    );
    expect(results.instances.length).toBeGreaterThanOrEqual(1);
    expect(results.incomplete?.reason).toMatch(/SIGTERM/);
    expect(results.instances.length + results.incomplete!.missing.length).toBe(5);
  }, 300_000);

  it('a lost engine is noticed within seconds, and the leaked container is swept next time', async () => {
    const dir = tempDir('tg-proxy-');
    const socket = join(dir, 'docker.sock');
    const connections = new Set<Socket>();
    const proxy: Server = createServer((client) => {
      const upstream = createConnection('/var/run/docker.sock');
      connections.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop);
      upstream.on('error', drop);
    });
    await new Promise<void>((r) => proxy.listen(socket, r));
    const cache = tempDir('tg-lost-');
    const run = startCli(['harvest', '--instances', slowSuite(120), '--cache', cache], {
      DOCKER_HOST: `unix://${socket}`,
    });
    // Both harvest runs' containers are up (they go side by side): then the engine goes away.
    await until(async () => (await containersOf(docker, run.child.pid)) === HARVEST_RUNS);
    const lostAt = Date.now();
    await new Promise<void>((r) => {
      proxy.close(() => r());
      for (const c of connections) c.destroy();
    });
    const { code } = await run.exited;
    expect(code).toBe(3);
    expect(Date.now() - lostAt).toBeLessThan(20_000);
    expect(run.stderr()).toMatch(/lost the connection to the Docker engine/);
    // Its containers (the two harvest runs go side by side) could not be removed through the dead
    // connection; the next run sweeps them.
    expect(await containersOf(docker, run.child.pid)).toBe(HARVEST_RUNS);
    const next = startCli(['harvest', '--instances', FIXTURE_SUITE, '--cache', tempDir()]);
    expect((await next.exited).code).toBe(0);
    expect(next.stderr()).toMatch(
      new RegExp(`Removed ${HARVEST_RUNS} container\\(s\\) left by an interrupted run`),
    );
    expect(await containersOf(docker, run.child.pid)).toBe(0);
  }, 300_000);

  it('a read-only or full output directory is named, with what to do', async () => {
    if (process.getuid?.() !== 0)
      throw new Error('this test mounts tmpfs: run it as root (CI does)');
    const cache = tempDir('tg-disk-');
    execFileSync(
      process.execPath,
      [CLI, 'harvest', '--instances', FIXTURE_SUITE, '--cache', cache],
      { stdio: 'ignore' },
    );
    const mounts: string[] = [];
    try {
      for (const [name, options] of [
        ['ro', 'ro,size=1m'],
        ['full', 'size=4k'],
      ] as const) {
        const dir = join(tempDir('tg-mnt-'), name);
        mkdirSync(dir);
        execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
        mounts.push(dir);
        if (name === 'full') writeFileSync(join(dir, 'filler'), Buffer.alloc(0));
        const run = startCli([
          'run',
          '--instances',
          FIXTURE_SUITE,
          '--cache',
          cache,
          '--endpoint',
          url,
          '--model',
          'm',
          '--out',
          join(dir, 'out'),
        ]);
        const { code } = await run.exited;
        expect(code).toBe(3);
        expect(run.stderr()).toMatch(
          name === 'ro'
            ? /Could not write .*\/ro\/out\/records\.jsonl: the file system is read-only/
            : /Could not write .*\/full\/out\/.*: the disk is full/,
        );
        expect(run.stderr()).not.toMatch(/Wrote /);
        // The same place as the cache: refused before any work, naming the cache and the fix.
        const harvest = startCli([
          'harvest',
          '--instances',
          FIXTURE_SUITE,
          '--cache',
          join(dir, 'cache'),
        ]);
        expect((await harvest.exited).code).toBe(3);
        expect(harvest.stderr()).toMatch(
          name === 'ro'
            ? /Could not write .*\/ro\/cache: the file system is read-only: point the directory at a writable place/
            : /Could not write .*\/full\/cache: the disk is full: free space or point the directory elsewhere/,
        );
      }
    } finally {
      for (const dir of mounts) {
        execFileSync('umount', [dir]);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 300_000);
});
