import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { resultsSchema } from '../../src/contracts/results.js';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { harvestContainerStarts, requireDocker } from '../helpers/docker.js';

// Milliseconds, not whole seconds: a window that starts at a whole second would take in the
// starts of the run that ended within that second.
const nowSec = () => Date.now() / 1000;

describe('tracegate run against a real Docker engine', () => {
  let docker: Docker;
  let endpoint: RunningServer;
  const cache = tempDir('tg-cache-');

  beforeAll(async () => {
    docker = await requireDocker();
    endpoint = await startHeuristicServer();
  });
  afterAll(() => endpoint.close());

  it('harvests oracles in containers, scores them, and a warm cache starts zero containers', async () => {
    const args = [
      '--instances',
      FIXTURE_SUITE,
      '--endpoint',
      endpoint.url,
      '--model',
      HEURISTIC_MODEL,
      '--cache',
      cache,
    ];

    const t0 = nowSec();
    const first = await runCli(['run', ...args, '--out', join(cache, 'out1')]);
    expect(first.stderr).not.toMatch(/^tracegate: /m);
    expect(first.code).toBe(0);
    const t1 = nowSec();
    // The measure must be able to fail: the cold run did start containers.
    expect(await harvestContainerStarts(docker, t0, t1)).toBeGreaterThan(0);

    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(cache, 'out1', 'results.json'), 'utf8')),
    );
    const oracle = (id: string) => results.instances.find((r) => r.id === id)?.oracle;
    // Answers known by construction of the fixture programs.
    expect(oracle('fx-loops-collatz')).toEqual({ loop_iteration_count: 8 });
    expect(oracle('fx-loops-collatz-7')).toEqual({ loop_iteration_count: 16 });
    expect(oracle('fx-loops-collatz-27')).toEqual({ loop_iteration_count: 111 });
    expect(oracle('fx-cfg-classify')).toEqual({ covered_lines: [2, 3, 4, 5, 6, 7, 9, 10] });
    expect(oracle('fx-exc-parse')).toEqual({ caught_exception_kinds: ['OverflowError'] });
    expect(results.summary.total).toBe(5);
    expect(results.summary.byKind.S2_Loops).toMatchObject({ total: 3 });
    expect(results.harvest).toMatchObject({ harvested: 5, cached: 0, backend: 'docker' });
    expect(first.stdout).toMatch(/\| S2_Loops \| [0-9.]+% \(\d\/3\) \|/);

    const t2 = nowSec();
    const second = await runCli(['run', ...args, '--out', join(cache, 'out2')]);
    expect(second.code).toBe(0);
    const t3 = nowSec();
    expect(await harvestContainerStarts(docker, t2, t3)).toBe(0);
    const again = resultsSchema.parse(
      JSON.parse(readFileSync(join(cache, 'out2', 'results.json'), 'utf8')),
    );
    expect(again.harvest).toMatchObject({ cached: 5, harvested: 0, backend: 'cache' });
    expect(again.summary).toEqual(results.summary);
  });
});
