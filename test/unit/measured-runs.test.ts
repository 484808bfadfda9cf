import type { HarvestBackend, HarvestJob } from '../../src/contracts/harvest-backend.js';
import { instanceSchema } from '../../src/contracts/instance.js';
import type { QuestionKind } from '../../src/contracts/kinds.js';
import type { LoadedInstance } from '../../src/contracts/suite.js';
import { measuredMisses } from '../../src/stages/harvest/harvest.js';
import { HARVEST_RUNS, runMeasured } from '../../src/stages/harvest/runs.js';
import { fakeBackend } from '../helpers/fake-engines.js';
import { ENV, loadedInEnv } from '../helpers/loaded.js';

function loaded(id: string, kind: QuestionKind, test: string, mutant = false): LoadedInstance {
  const instance = instanceSchema.parse({
    id,
    kind,
    environment: 'env',
    tests: [`test_m.py::${test}`],
    target: { file: 'pkg/m.py', function: 'f' },
    query: kind === 'S2_Loops' ? { invocation: 1, loop_line: 3 } : {},
    ...(mutant
      ? {
          expect_failure: true,
          mutant: { file: 'pkg/m.py', line: 2, original: '<', replacement: '<=' },
        }
      : {}),
  });
  return loadedInEnv(instance);
}

/** The fake tracer: whether any two of its jobs ran at once. */
function watched() {
  let running = 0;
  let overlapped = false;
  let jobs = 0;
  const inner = fakeBackend();
  const backend: HarvestBackend = {
    ...inner,
    run: async (job: HarvestJob) => {
      running++;
      jobs++;
      overlapped ||= running > 1;
      await new Promise((r) => setTimeout(r, 30));
      running--;
      return inner.run(job);
    },
  };
  return { backend, seen: () => ({ jobs, overlapped }) };
}

const deps = { log: () => {}, warn: () => {} };

describe('measured instances are harvested last, one run at a time', () => {
  it('picks the wall-time, peak and profile items and the other world items of their test, never a mutant', () => {
    const misses = [
      loaded('w2', 'W2_PeakMemory', 'test_grow'),
      loaded('w1', 'W1_Outcome', 'test_grow'),
      loaded('w4', 'W4_Profile', 'test_grow'),
      loaded('w1-mutant', 'W1_Outcome', 'test_grow', true),
      loaded('w1-other', 'W1_Outcome', 'test_other'),
      loaded('w3', 'W3_WallTime', 'test_pause'),
      loaded('s2', 'S2_Loops', 'test_pause'),
      // A profile alone is measured too (its time lists are wall-clock), with its test's outcome.
      loaded('w4-alone', 'W4_Profile', 'test_hot'),
      loaded('w1-hot', 'W1_Outcome', 'test_hot'),
    ].map((l) => ({ loaded: l, key: l.instance.id }));
    const picked = [...measuredMisses(misses)].map((m) => m.loaded.instance.id).sort();
    expect(picked).toEqual(['w1', 'w1-hot', 'w2', 'w3', 'w4', 'w4-alone']);
  });

  it('one run after the other, each a job of its own, every run answering every item', async () => {
    const { backend, seen } = watched();
    const items = [
      loaded('w3', 'W3_WallTime', 'test_pause'),
      loaded('w2', 'W2_PeakMemory', 'test_grow'),
    ];
    const { runs } = await runMeasured(backend, ENV, items, deps);
    expect(runs).toHaveLength(HARVEST_RUNS);
    for (const run of runs) expect([...run.keys()].sort()).toEqual(['w2', 'w3']);
    expect(seen()).toEqual({ jobs: HARVEST_RUNS, overlapped: false });
  });

  it('an interrupt before the next run stops there', async () => {
    const { backend, seen } = watched();
    const controller = new AbortController();
    const interrupting: HarvestBackend = {
      ...backend,
      run: async (job) => {
        const out = await backend.run(job);
        controller.abort('SIGINT');
        return out;
      },
    };
    const { runs } = await runMeasured(
      interrupting,
      ENV,
      [loaded('w3', 'W3_WallTime', 'test_pause')],
      { ...deps, signal: controller.signal },
    );
    expect(runs).toHaveLength(1);
    expect(seen().jobs).toBe(1);
  });
});
