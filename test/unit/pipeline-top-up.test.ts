import { toGatePolicy, topUpPool } from '../../src/app/config/assemble.js';
import { parseCompareOptions } from '../../src/app/config/options.js';
import type { Environment, ResolvedSource, Runtime } from '../../src/contracts/environment.js';
import type { CachedOracle } from '../../src/contracts/oracle.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { environmentDigest } from '../../src/stages/harvest/environment-digest.js';
import { oracleKey } from '../../src/stages/harvest/key.js';
import { runPipeline } from '../../src/app/pipeline.js';
import { selectInstances } from '../../src/stages/select/select.js';
import type { Stores } from '../../src/contracts/ports.js';
import { loadSuite } from '../../src/adapters/suite/load.js';
import { FIXTURE_SUITE } from '../helpers/cli.js';
import { rec, resultsOf } from '../helpers/records.js';
import type { LoadedInstance } from '../../src/contracts/suite.js';
import type { ModelClient } from '../../src/contracts/model.js';
import { oracleDigest } from '../../src/stages/kinds/digest.js';
import type { RunInput } from '../../src/app/run-input.js';

/**
 * The pipeline's top-up, end to end through its real stages, with hand-written
 * fakes at the edges: every oracle is in a fake store (so no container runs),
 * a fake model answers every question right. The fixture suite's 5 instances:
 * a sample of 3, a top-up pool of 2.
 */
const TRACER = 'tracer-digest';
const SOURCE: ResolvedSource = { kind: 'packages', wheels: [] };
const RUNTIME: Runtime = {
  backend: 'local',
  python: '/usr/bin/python3',
  version: '3.11.9',
  note: 'fake',
};

function oracleOf(loaded: LoadedInstance, envDigest: string): CachedOracle {
  return {
    oracle: {
      question_kind: loaded.instance.kind,
      question: `What is n for ${loaded.instance.id}?`,
      template_answer: { n: 'int' },
      oracle_answer: { n: 1 },
      meta: {
        instance_id: loaded.instance.id,
        instance_hash: loaded.contentHash,
        environment_digest: envDigest,
        python: '3.11.9',
        tracer_version: 'fake',
        runs_agreed: 2,
        harvested_at: '2026-12-01T00:00:00Z',
      },
    },
    context: { file: 'f.py', func: 'f', first_line: 1, source: 'def f():\n    return 1' },
  };
}

function setup(baseline: Results | undefined, topUp: number) {
  const suite = loadSuite(FIXTURE_SUITE);
  const selected = selectInstances(suite.instances, { sample: 3, seed: 0 });
  const pool = topUpPool(
    suite,
    { seed: 0, cache: '', backend: 'local', 'retry-failed': false, 'image-registry-push': 'auto' },
    selected,
  );
  const oracles = new Map<string, CachedOracle>();
  for (const loaded of suite.instances) {
    const env = environmentDigest(loaded.environment as Environment, SOURCE, RUNTIME);
    oracles.set(oracleKey(loaded.contentHash, env, TRACER), oracleOf(loaded, env));
  }
  const appended: InstanceRecord[] = [];
  const finished: Results[] = [];
  const stores: Stores = {
    oracles: { get: (key) => oracles.get(key), put: () => {} },
    results: {
      append: (r) => appended.push(r),
      finish: (r) => finished.push(r),
      location: 'memory',
    },
    ...(baseline
      ? { baseline: { resolve: async () => ({ results: baseline, source: 'fake baseline' }) } }
      : {}),
  };
  const client: ModelClient = {
    endpoint: 'http://fake/v1',
    identity: {
      endpoint: 'http://fake/v1',
      api: 'openai-chat',
      model: 'm',
      settings: { temperature: 0, maxTokens: 64 },
    },
    complete: async () => ({
      text: '{"n": 1}',
      finishReason: 'stop',
      tokensIn: 10,
      tokensOut: 3,
      latencyMs: 1,
      retries: 0,
    }),
  };
  const input: RunInput = {
    selection: { selected, ...(topUp ? { topUp: { pool, max: topUp, seed: 0 } } : {}) },
    harvest: { tracerDigest: TRACER },
    query: {
      model: { endpoint: client.endpoint, name: 'm' },
      config: {
        samples: 1,
        prompt: { mode: 'slice', budget: { amount: 16000, unit: 'tokens' } },
        concurrency: 2,
      },
    },
    gate: {
      policy: toGatePolicy(parseCompareOptions({ baseline: 'b', candidate: 'c' })),
      scorer: 'tracegate-strict@1',
    },
    report: {},
  };
  const logs: string[] = [];
  const deps = {
    log: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(m),
    harvest: {
      sources: { resolve: async () => SOURCE },
      backend: () => ({
        name: 'fake',
        ensureAvailable: async () => {},
        runtime: async () => ({ runtime: RUNTIME, source: SOURCE }),
        run: async () => {
          throw new Error('no harvest expected: every oracle is cached');
        },
      }),
    },
    client,
    // No variants here: the screen is never asked.
    screen: client,
    stores,
  };
  const baselineRecords = (correct: boolean) =>
    suite.instances.map((l) => {
      const env = environmentDigest(l.environment as Environment, SOURCE, RUNTIME);
      return rec(l.instance.id, l.instance.kind, correct, {
        oracleDigest: oracleDigest(oracleOf(l, env).oracle),
      });
    });
  return { selected, pool, input, deps, appended, finished, logs, baselineRecords };
}

describe('top-up through the pipeline', () => {
  it('adds the pool the baseline answered when the first look is inconclusive, and decides again', async () => {
    const first = setup(undefined, 0);
    const baseline = resultsOf(first.baselineRecords(true));
    const { input, deps, appended, finished, logs, selected, pool } = setup(baseline, 2);
    expect(selected).toHaveLength(3);
    expect(pool).toHaveLength(2);
    const outcome = await runPipeline(input, deps);
    const c = outcome.comparison;
    expect(c.look).toMatchObject({ index: 2, of: 2 });
    expect(c.look.alpha).toBeCloseTo(0.05 - 0.05 * Math.log(1 + (Math.E - 1) * 0.6), 12);
    expect(c.topUp).toEqual({
      planned: 2,
      added: 2,
      ids: expect.arrayContaining(pool.map((l) => l.instance.id)),
    });
    expect(c.overall).toMatchObject({ paired: 5, lost: 0, gained: 0 });
    // Five items in three test files: still too few to test — honestly inconclusive.
    expect(c.verdict).toBe('inconclusive');
    expect(c.causes).toEqual(['too few items']);
    expect(outcome.results.instances.map((r) => r.id)).toEqual([
      ...selected.map((l) => l.instance.id),
      ...c.topUp!.ids,
    ]);
    expect(appended).toHaveLength(5);
    expect(appended.every((r) => r.cluster && r.oracleDigest)).toBe(true);
    expect(finished).toHaveLength(1);
    expect(logs.some((l) => /topping up with 2 instance\(s\)/.test(l))).toBe(true);
  });

  it('takes no second look without a baseline, or when the baseline answered nothing outside the sample', async () => {
    const none = setup(undefined, 2);
    const alone = await runPipeline(none.input, none.deps);
    expect(alone.comparison).toMatchObject({ verdict: 'no-baseline', look: { index: 1, of: 1 } });
    expect(alone.results.instances).toHaveLength(3);

    const only = setup(undefined, 0);
    const sampled = new Set(only.selected.map((l) => l.instance.id));
    const narrow = resultsOf(only.baselineRecords(true).filter((r) => sampled.has(r.id)));
    const again = setup(narrow, 2);
    const outcome = await runPipeline(again.input, again.deps);
    expect(outcome.comparison.look).toEqual({ index: 1, of: 1, alpha: 0.05 });
    expect(outcome.comparison.topUp).toBeUndefined();
  });

  it('refuses a baseline of another scorer before any work', async () => {
    const first = setup(undefined, 0);
    const other = resultsOf(first.baselineRecords(true));
    other.provenance = { ...other.provenance, scorer: 'swe-flux@1' };
    const { input, deps, appended } = setup(other, 0);
    await expect(runPipeline(input, deps)).rejects.toThrow(
      /fake baseline cannot be compared with this run: scorer/,
    );
    expect(appended).toHaveLength(0);
  });
});
