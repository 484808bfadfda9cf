import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { cpSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A private copy of the fixture suite a test may break. */
function suiteCopy(): string {
  const dir = join(tempDir('tg-suite-'), 'suite');
  cpSync(FIXTURE_SUITE, dir, { recursive: true });
  return dir;
}

describe('bad input gets a clear error and the right exit code', () => {
  let endpoint: RunningServer;
  beforeAll(async () => {
    await requireDocker();
    endpoint = await startHeuristicServer();
  });
  afterAll(() => endpoint.close());

  it('rejects a malformed instance naming the file and the field, and runs the others', async () => {
    const suite = suiteCopy();
    const file = join(suite, 'basic', 'fx-exc-parse', 'instance.json');
    const instance = JSON.parse(readFileSync(file, 'utf8'));
    instance.tests = 'test_settings.py';
    writeFileSync(file, JSON.stringify(instance));
    const out = tempDir();
    const { code, stderr } = await runCli([
      'run',
      '--instances',
      suite,
      '--endpoint',
      endpoint.url,
      '--model',
      HEURISTIC_MODEL,
      '--cache',
      tempDir(),
      '--out',
      out,
    ]);
    expect(stderr).toContain(`warning: Skipping ${file}`);
    expect(stderr).toMatch(/tests: .*expected array/i);
    expect(code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.summary.total).toBe(4);
    expect(results.rejected).toEqual([
      { file, id: 'fx-exc-parse', reason: expect.stringMatching(/tests: .*expected array/i) },
    ]);
  });

  it('names the file of an instance that is not JSON, and harvests the others', async () => {
    const suite = suiteCopy();
    const file = join(suite, 'basic', 'fx-cfg-classify', 'instance.json');
    writeFileSync(file, '{ "id": "fx-cfg-classify", ');
    const { code, stderr, stdout } = await runCli([
      'harvest',
      '--instances',
      suite,
      '--cache',
      tempDir(),
    ]);
    expect(stderr).toContain(`${file}: not valid JSON`);
    expect(code).toBe(0);
    expect(stdout).toContain('oracles: 0 cached, 4 harvested, 0 failed');
    expect(stdout).toContain(`rejected ${file}`);
  });

  it('exits 2 when no instance of the suite could be loaded', async () => {
    const suite = join(tempDir('tg-broken-'), 'suite');
    cpSync(join(FIXTURE_SUITE, 'environments'), join(suite, 'environments'), { recursive: true });
    cpSync(join(FIXTURE_SUITE, 'basic', 'fx-cfg-classify'), join(suite, 'one'), {
      recursive: true,
    });
    writeFileSync(join(suite, 'one', 'instance.json'), '[]');
    const { code, stderr } = await runCli(['harvest', '--instances', suite, '--cache', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/instance\.json: .*no instance of the suite could be loaded/);
  });

  it('rejects an empty selection (exit 2)', async () => {
    const { code, stderr } = await runCli([
      'run',
      '--instances',
      FIXTURE_SUITE,
      '--ids',
      'no-such-id',
      '--endpoint',
      endpoint.url,
      '--model',
      HEURISTIC_MODEL,
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/selection is empty/);
  });

  it('rejects an endpoint without a scheme (exit 2)', async () => {
    const { code, stderr } = await runCli([
      'run',
      '--instances',
      FIXTURE_SUITE,
      '--endpoint',
      '127.0.0.1:8000/v1',
      '--model',
      'm',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--endpoint "127.0.0.1:8000\/v1"/);
  });

  it('fails with exit 3 when no Docker engine is reachable and the cache is cold', async () => {
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
    try {
      const { code, stderr } = await runCli([
        'run',
        '--instances',
        FIXTURE_SUITE,
        '--endpoint',
        endpoint.url,
        '--model',
        HEURISTIC_MODEL,
        '--cache',
        tempDir(),
      ]);
      expect(code).toBe(3);
      expect(stderr).toMatch(/No Docker engine reachable/);
      expect(stderr).toMatch(/--backend local/);
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });

  it('fails with exit 3 on an unreachable endpoint, naming it, and keeps the results file', async () => {
    const cache = tempDir();
    const out = join(cache, 'out');
    const dead = `http://127.0.0.1:${await closedPort()}/v1`;
    const { code, stderr } = await runCli([
      'run',
      '--instances',
      FIXTURE_SUITE,
      '--endpoint',
      dead,
      '--model',
      'm',
      '--cache',
      cache,
      '--out',
      out,
      '--retries',
      '1',
      '--timeout',
      '2',
      // Past the preflight (test/unit/endpoint-preflight.test.ts): a server that dies mid-run.
      '--preflight',
      'false',
    ]);
    expect(code).toBe(3);
    expect(stderr).toContain(dead);
    expect(stderr).toMatch(/ECONNREFUSED/);
    expect(existsSync(join(out, 'results.json'))).toBe(true);
  });

  it("reports an unknown model with the server's own message (exit 2)", async () => {
    const { code, stderr } = await runCli([
      'run',
      '--instances',
      FIXTURE_SUITE,
      '--ids',
      'fx-exc-parse',
      '--endpoint',
      endpoint.url,
      '--model',
      'gpt-nonexistent',
      '--cache',
      tempDir(),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/The model `gpt-nonexistent` does not exist/);
  });
});
