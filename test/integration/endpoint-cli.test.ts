import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Results } from '../../src/contracts/results.js';
import { PROMPT_VERSION } from '../../src/stages/prompt/build.js';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FaultyModelServer } from '../helpers/model-server.js';

/**
 * The query stage through the real CLI and pipeline: oracles harvested once
 * in Docker for the fixture suite (5 instances), then runs against loopback
 * endpoints that die, change checkpoint, or refuse the key.
 */
describe('tracegate run against model endpoints', () => {
  const cache = tempDir('tg-endpoint-cache-');
  beforeAll(async () => {
    await requireDocker();
    const harvest = await runCli(['harvest', '--instances', FIXTURE_SUITE, '--cache', cache]);
    expect(harvest.code).toBe(0);
  }, 600_000);

  const run = (url: string, out: string, ...extra: string[]) =>
    runCli([
      'run',
      '--instances',
      FIXTURE_SUITE,
      '--endpoint',
      url,
      '--model',
      'ckpt',
      '--cache',
      cache,
      '--out',
      out,
      ...extra,
    ]);
  const results = (out: string) =>
    JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  const records = (out: string) =>
    readFileSync(join(out, 'records.jsonl'), 'utf8').trim().split('\n').filter(Boolean);

  async function serving<T>(server: FaultyModelServer, f: (url: string) => Promise<T>) {
    try {
      return await f(await server.start());
    } finally {
      await server.stop();
    }
  }

  it('exits 3 naming the endpoint when it dies mid-run, keeping every answer obtained', async () => {
    const out = join(tempDir(), 'out');
    const server = new FaultyModelServer(
      () => '{"loop_iteration_count": 1}',
      (n) => (n > 2 ? { kind: 'status', status: 503 } : undefined),
    );
    const { code, stderr } = await serving(server, (url) =>
      run(url, out, '--model-revision', 'dies', '--concurrency', '1', '--retries', '1'),
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(
      /Model endpoint http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions is unavailable: HTTP 503/,
    );
    expect(records(out)).toHaveLength(2);
    const kept = results(out);
    expect(kept.instances).toHaveLength(2);
    expect(kept.instances.every((r) => r.prediction === '{"loop_iteration_count": 1}')).toBe(true);
  });

  it('never serves one model revision the answers cached for another; a re-run re-queries nothing', async () => {
    let answer = '{"loop_iteration_count": 8}';
    const server = new FaultyModelServer(() => answer);
    await serving(server, async (url) => {
      const outA = join(tempDir(), 'a');
      expect((await run(url, outA, '--model-revision', 'sha-A')).code).toBe(0);
      expect(server.requests).toBe(5);

      answer = '{"loop_iteration_count": 999}';
      const outB = join(tempDir(), 'b');
      expect((await run(url, outB, '--model-revision', 'sha-B')).code).toBe(0);
      expect(server.requests).toBe(10);
      expect(results(outB).instances.map((r) => r.prediction)).toEqual(
        Array(5).fill('{"loop_iteration_count": 999}'),
      );
      expect(results(outB).query?.cacheHits).toBe(0);

      const rerun = join(tempDir(), 'a2');
      expect((await run(url, rerun, '--model-revision', 'sha-A')).code).toBe(0);
      expect(server.requests).toBe(10);
      const again = results(rerun);
      expect(again.query?.cacheHits).toBe(5);
      expect(again.instances.map((r) => [r.id, r.prediction, r.correct])).toEqual(
        results(outA).instances.map((r) => [r.id, r.prediction, r.correct]),
      );
      expect(again.prompt).toEqual({
        version: PROMPT_VERSION,
        context: 'slice',
        budget: '16000 tokens',
      });
    });
  });

  it('says the key was refused (exit 2) without printing it', async () => {
    const server = new FaultyModelServer(() => '{}', undefined, { apiKey: 'the-right-one' });
    const secret = 'sk-live-0123456789abcdef';
    const { code, stdout, stderr } = await serving(server, (url) =>
      run(url, join(tempDir(), 'out'), '--api-key', secret, '--model-revision', 'k'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/refused the API key \(HTTP 401/);
    expect(stdout + stderr).not.toContain(secret);
  });
});
