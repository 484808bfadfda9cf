import { assembleResults, mergeHarvests, NO_HARVEST } from '../../src/app/results.js';
import { rec } from '../helpers/records.js';
import type { LoadedInstance } from '../../src/contracts/suite.js';
import { clusterOf } from '../../src/stages/query/record.js';
import type { RunInput } from '../../src/app/run-input.js';

const loaded = (id: string, tests: string[], environment = 'click'): LoadedInstance =>
  ({
    instance: { id, kind: 'S2_Loops', environment, tests },
    contentHash: `hash-${id}`,
  }) as unknown as LoadedInstance;

const input = {
  selection: { selected: [] },
  harvest: { tracerDigest: 'tracer-digest' },
  query: {
    model: { endpoint: 'http://e/v1', name: 'm' },
    config: {
      samples: 1,
      prompt: { mode: 'slice', budget: { amount: 16000, unit: 'tokens' } },
      concurrency: 1,
    },
  },
  gate: { scorer: 'tracegate-strict@1' },
  report: {},
} as unknown as RunInput;

describe('what a run writes', () => {
  it('clusters an instance by its environment and first test file, and by its environment', () => {
    expect(clusterOf(loaded('a', ['test_greet.py::test_twice', 'test_other.py']))).toEqual({
      test: 'click:test_greet.py',
      package: 'click',
    });
    expect(clusterOf(loaded('b', ['tests/test_sizes.py'], 'jinja2')).test).toBe(
      'jinja2:tests/test_sizes.py',
    );
  });

  it('merges the harvests of the selection and of a top-up', () => {
    const env = { name: 'click', digest: 'd', source: 'packages', runtime: 'r' };
    const merged = mergeHarvests(
      { ...NO_HARVEST, cached: 3, backend: 'cache', environments: [env] },
      { ...NO_HARVEST, harvested: 2, failed: 1, backend: 'docker', environments: [env] },
    );
    expect(merged).toMatchObject({ cached: 3, harvested: 2, failed: 1, backend: 'docker' });
    expect(merged.environments).toEqual([env]);
  });

  it('lists the attempted instances without a record as incomplete, and the provenance', () => {
    const attempted = [loaded('a', ['t.py']), loaded('b', ['t.py'])];
    const results = assembleResults({
      input,
      attempted,
      records: new Map([['a', rec('a', 'S2_Loops', true)]]),
      harvest: undefined,
      identity: {
        endpoint: 'http://e/v1',
        api: 'openai-chat',
        model: 'm',
        settings: { temperature: 0, maxTokens: 64 },
      },
      startedAt: '2026-12-01T00:00:00.000Z',
    });
    expect(results.instances.map((r) => r.id)).toEqual(['a']);
    expect(results.incomplete).toEqual({
      reason: 'not every selected instance was answered',
      missing: ['b'],
    });
    expect(results.provenance).toMatchObject({
      tracer: 'tracer-digest',
      scorer: 'tracegate-strict@1',
      prompt: 'p4',
    });
    expect(results.provenance.instances).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prices the run when given USD per million tokens, and not otherwise', () => {
    const state = {
      attempted: [loaded('a', ['t.py'])],
      // rec(): 100 tokens in, 10 out.
      records: new Map([['a', rec('a', 'S2_Loops', true)]]),
      harvest: undefined,
      identity: {
        endpoint: 'http://e/v1',
        api: 'openai-chat',
        model: 'm',
        settings: { temperature: 0, maxTokens: 64 },
      },
      startedAt: '2026-12-01T00:00:00.000Z',
    };
    const priced = assembleResults({
      ...state,
      input: { ...input, query: { ...input.query, price: { input: 3, output: 15 } } },
    });
    expect(priced.cost).toEqual({
      usd: (100 * 3 + 10 * 15) / 1e6,
      price: { input: 3, output: 15 },
    });
    expect(assembleResults({ ...state, input }).cost).toBeUndefined();
  });
});
