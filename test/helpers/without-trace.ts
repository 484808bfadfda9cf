import type { CachedOracle } from '../../src/contracts/oracle.js';

/**
 * A harvested entry with everything the run produced removed: the answer,
 * the measurement, the verification, the runs' agreement and exit code. What
 * is left (question, template, context) was made before any run (the tracer
 * builds the context from source: tracer/tests/test_slice.py).
 */
export function withoutTrace(entry: CachedOracle): CachedOracle {
  const meta = { ...entry.oracle.meta };
  delete meta.measurement;
  delete meta.verification;
  return {
    oracle: {
      ...entry.oracle,
      oracle_answer: null,
      meta: { ...meta, runs_agreed: 0, pytest_exit_code: null },
    },
    context: entry.context,
  };
}
