import type { CachedOracle } from '../../src/contracts/oracle.js';

/** One cached oracle entry (an S2 loop count) for the store tests. */
export const ORACLE_ENTRY: CachedOracle = {
  oracle: {
    question_kind: 'S2_Loops',
    question: 'How many?',
    template_answer: { loop_iteration_count: 'int' },
    oracle_answer: { loop_iteration_count: 8 },
    meta: {
      instance_id: 'x',
      instance_hash: 'h',
      environment_digest: 'e',
      python: '3.11.2',
      tracer_version: '0.1.0',
      runs_agreed: 1,
      harvested_at: '2026-11-30T00:00:00Z',
    },
  },
  context: { file: 'm.py', func: 'm.f', first_line: 1, source: 'def f(): pass\n' },
};
