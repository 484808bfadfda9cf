import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oracleSchema, type Oracle } from '../../src/contracts/oracle.js';
import { resultsSchema } from '../../src/contracts/results.js';
import { FIXTURES, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { cachedOracles, oracleEchoServer } from '../helpers/echo-model.js';
import { FaultyModelServer } from '../helpers/model-server.js';

const SUITE = join(FIXTURES, 'world');
const MIB = 1024 * 1024;

function oraclesOf(cache: string): Map<string, Oracle> {
  const root = join(cache, 'oracles');
  return new Map(
    readdirSync(root).map((key) => {
      const oracle = oracleSchema.parse(
        JSON.parse(readFileSync(join(root, key, 'oracle.json'), 'utf8')),
      );
      return [oracle.meta.instance_id, oracle] as const;
    }),
  );
}

async function harvest(cache: string): Promise<Map<string, Oracle>> {
  const { code, stdout } = await runCli(['harvest', '--instances', SUITE, '--cache', cache]);
  expect({ code, totals: stdout.split('\n')[0] }).toEqual({
    code: 0,
    totals: 'oracles: 0 cached, 6 harvested, 0 failed',
  });
  return oraclesOf(cache);
}

describe('world-model kinds, harvested in Docker and scored', () => {
  let cache: string;
  let oracles: Map<string, Oracle>;
  beforeAll(async () => {
    await requireDocker();
    cache = tempDir('tg-world-');
    oracles = await harvest(cache);
  }, 600_000);

  it('measures outcome, peak, wall time and hot spots known by construction', () => {
    const answer = (id: string) => oracles.get(id)!.oracle_answer as Record<string, unknown>;
    expect(answer('wm-outcome-pass')).toEqual({
      outcome: 'passed',
      exception_type: null,
      failure_line: null,
    });
    // The flipped comparison fails grade(50) == "pass" at line 20 of the test file.
    expect(answer('wm-outcome-mutant')).toEqual({
      outcome: 'failed',
      exception_type: 'AssertionError',
      failure_line: 20,
    });
    expect(oracles.get('wm-outcome-mutant')!.meta.measurement?.mutant).toMatchObject({
      original: '>=',
      replacement: '>',
    });
    // A test that kills its process: error, the signal recorded, the instance kept.
    expect(answer('wm-outcome-crash')).toEqual({
      outcome: 'error',
      exception_type: null,
      failure_line: null,
    });
    expect(oracles.get('wm-outcome-crash')!.meta.measurement?.signal).toBe('SIGSEGV');
    const peak = answer('wm-peak-grow').peak_bytes as number;
    expect(peak).toBeGreaterThanOrEqual(30 * MIB);
    expect(peak).toBeLessThan(36 * MIB);
    const wall = answer('wm-wall-pause').wall_ms as number;
    expect(wall).toBeGreaterThanOrEqual(40);
    expect(wall).toBeLessThan(200);
    const profile = answer('wm-profile-report');
    expect((profile.hot_methods_time as string[])[0]).toBe('wmpkg.core.report');
    expect(profile.hot_methods_time).toContain('wmpkg.core.tally');
    expect((profile.hot_lines_time as string[])[0]).toBe('wmpkg/core.py:26'); // the sleep
    expect((profile.hot_lines_alloc as string[])[0]).toBe('wmpkg/core.py:27'); // json.dumps
    // Where the gold came from: machine, runtime, runs, band.
    const meta = oracles.get('wm-wall-pause')!.meta.measurement!;
    expect(meta).toMatchObject({ clean_runs: 5, band: { ratio: 2, floor: 2 } });
    expect((meta.machine as { cpus: number }).cpus).toBeGreaterThanOrEqual(1);
    expect((meta.harvests as unknown[]).length).toBe(2);
    // Measured last, when nothing else of the harvest ran, the machine's load around its clean runs
    // recorded (its two runs one after the other: test/unit/measured-runs.test.ts). Profiles are
    // measured in that quiet phase too, in any order among the measured tests.
    const at = (id: string) => Date.parse(oracles.get(id)!.meta.harvested_at);
    const others = ['wm-outcome-pass', 'wm-outcome-mutant', 'wm-outcome-crash'];
    for (const id of ['wm-peak-grow', 'wm-wall-pause', 'wm-profile-report']) {
      expect(at(id)).toBeGreaterThanOrEqual(Math.max(...others.map(at)));
      const load = oracles.get(id)!.meta.measurement!.load as { before: unknown; after: unknown };
      expect([typeof load.before, typeof load.after]).toEqual(['number', 'number']);
    }
  });

  it('a re-harvest gives the same outcomes and top entries, and numbers within the band', async () => {
    const again = await harvest(tempDir('tg-world-again-'));
    for (const [id, oracle] of oracles) {
      const first = oracle.oracle_answer as Record<string, unknown>;
      const second = again.get(id)!.oracle_answer as Record<string, unknown>;
      if (oracle.question_kind === 'W1_Outcome') expect(second).toEqual(first);
      if (oracle.question_kind === 'W4_Profile')
        for (const list of Object.keys(first))
          expect([list, (second[list] as string[])[0]]).toEqual([
            list,
            (first[list] as string[])[0],
          ]);
      const band = oracle.meta.measurement?.band as { ratio: number; floor: number } | undefined;
      if (band) {
        const [a, b] = [first, second].map((x) => Object.values(x)[0] as number);
        const [low, high] = [Math.min(a!, b!), Math.max(a!, b!)];
        expect(high - low <= band.floor || high <= low * band.ratio).toBe(true);
      }
    }
  }, 600_000);

  it('an endpoint that echoes each oracle passes every instance: F1 = 1, MAE = 0, NDCG@5 = 1', async () => {
    const echo = oracleEchoServer(cachedOracles(cache));
    const url = await echo.start();
    try {
      const out = join(cache, 'out-echo');
      const run = await runCli([
        'run',
        '--instances',
        SUITE,
        '--cache',
        cache,
        '--endpoint',
        url,
        '--model',
        'echo',
        '--out',
        out,
      ]);
      expect(run.code).toBe(0);
      const results = resultsSchema.parse(
        JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
      );
      expect(results.instances.filter((r) => !r.correct).map((r) => r.id)).toEqual([]);
      expect(results.summary.total).toBe(6);
      expect(results.summary.world).toMatchObject({
        outcome: { n: 3, precision: 1, recall: 1, f1: 1 },
        memory: { n: 1, bias: 0, mae: 0 },
        time: { n: 1, bias: 0, mae: 0 },
        profile: {
          n: 1,
          ndcg5: {
            hot_methods_time: 1,
            hot_methods_alloc: 1,
            hot_lines_time: 1,
            hot_lines_alloc: 1,
          },
          executionRate: 1,
        },
      });
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(
        /World-model metrics[\s\S]*W1 outcome \(failure positive\) \| 3 \| precision 1\.00, recall 1\.00, F1 1\.00/,
      );
    } finally {
      await echo.stop();
    }
  }, 600_000);

  it('a test that writes into its own measurement forges nothing: refused, and the instances around it keep their oracles', async () => {
    const suite = join(tempDir('tg-world-forge-'), 'world');
    cpSync(SUITE, suite, { recursive: true });
    const dir = join(suite, 'basic');
    // The plugin's output is open in the measured process: the test writes a passing `end` and a 1e30 peak.
    writeFileSync(
      join(dir, 'test_forge.py'),
      [
        'import json, os, sys',
        'from wmpkg import core',
        'def _forge(**fields):',
        '    plugin = sys.modules["tracegate_measure_plugin"]',
        '    phases = {"setup": "passed", "call": "passed", "teardown": "passed"}',
        '    os.write(plugin._OUT, (json.dumps(dict({"event": "end", "phases": phases, "wall_ns": 1000}, **fields)) + "\\n").encode())',
        'def test_forged_pass():',
        '    _forge()',
        '    assert core.grade(10) == "pass", "fails, but says it passed"',
        'def test_forged_peak():',
        '    core.grow(1)',
        '    _forge(traced_peak=1e30, rss_peak=1e30)',
        '    os._exit(0)',
        '',
      ].join('\n'),
    );
    const instance = (id: string, kind: string, test: string, fn: string) =>
      writeFileSync(
        join(dir, `${id}.instance.json`),
        JSON.stringify({
          id,
          kind,
          environment: 'plain',
          tests: [`test_forge.py::${test}`],
          target: { file: 'wmpkg/core.py', function: fn },
          query: {},
          timeout_seconds: 60,
        }),
      );
    // Ids between the controls: wm-outcome-* run before them, wm-peak-grow and the rest after.
    instance('wm-p-forged-pass', 'W1_Outcome', 'test_forged_pass', 'grade');
    instance('wm-p-forged-peak', 'W2_PeakMemory', 'test_forged_peak', 'grow');
    const forged = tempDir('tg-world-forge-cache-');
    const { stdout, stderr } = await runCli(['harvest', '--instances', suite, '--cache', forged]);
    expect(stdout.split('\n')[0]).toBe('oracles: 0 cached, 6 harvested, 2 failed');
    for (const id of ['wm-p-forged-pass', 'wm-p-forged-peak'])
      expect(stderr).toMatch(
        new RegExp(`${id}: invalid — .*the test wrote to its own measurement`),
      );
    const kept = oraclesOf(forged);
    for (const id of ['wm-outcome-pass', 'wm-outcome-mutant', 'wm-outcome-crash'])
      expect(kept.get(id)!.oracle_answer).toEqual(oracles.get(id)!.oracle_answer);
    const peak = (o: Map<string, Oracle>) =>
      (o.get('wm-peak-grow')!.oracle_answer as { peak_bytes: number }).peak_bytes;
    expect(Math.abs(peak(kept) - 30 * MIB)).toBeLessThan(2 * MIB);
  }, 600_000);

  it('hostile numbers and names that never ran: scored, never a crash', async () => {
    const replies: Record<string, string> = {
      W1_Outcome: '{"outcome": "passed", "exception_type": null, "failure_line": null}',
      W2_PeakMemory: '{"peak_bytes": -5}',
      W3_WallTime: '{"wall_ms": "1e400"}',
      W4_Profile:
        '{"hot_methods_time": ["wmpkg.core.nowhere", "wmpkg.core.report"], "hot_methods_alloc": [], ' +
        '"hot_lines_time": ["wmpkg/core.py:999"], "hot_lines_alloc": []}',
    };
    const server = new FaultyModelServer((prompt) => {
      const kind = Object.keys(replies).find((k) => prompt.includes(k)) ?? 'W1_Outcome';
      return replies[kind]!;
    });
    const url = await server.start();
    try {
      const out = join(cache, 'out-hostile');
      const run = await runCli([
        'run',
        '--instances',
        SUITE,
        '--cache',
        cache,
        '--endpoint',
        url,
        '--model',
        'm',
        '--out',
        out,
      ]);
      expect(run.code).toBe(0);
      const results = resultsSchema.parse(
        JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
      );
      const correct = Object.fromEntries(results.instances.map((r) => [r.id, r.correct]));
      // Biased toward "passed": right on the passing test only.
      expect(correct).toMatchObject({
        'wm-outcome-pass': true,
        'wm-outcome-mutant': false,
        'wm-outcome-crash': false,
        'wm-peak-grow': false,
        'wm-wall-pause': false,
        'wm-profile-report': false,
      });
      const world = results.summary.world as {
        outcome: unknown;
        profile: { executionRate: number };
      };
      expect(world.outcome).toEqual({ n: 3, precision: null, recall: 0, f1: null });
      // Two of the three predicted names never ran: they lower the execution rate, nothing fails.
      expect(world.profile.executionRate).toBeCloseTo(1 / 3, 3);
    } finally {
      await server.stop();
    }
  }, 600_000);
});
