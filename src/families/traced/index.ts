import { TRACED_KINDS } from '../../contracts/kinds.js';
import type { KindFamily } from '../family.js';

/**
 * SWE-Flux's execution-reasoning kinds, single-test (S1–S7) and suite (M1–M7): answered by the tracer
 * from recorded runs (tracer/README.md); two runs agree on identical answers; a prediction is scored
 * by the run's structural scorer (strict, or SWE-Flux's own).
 */
export const traced: KindFamily = {
  name: 'traced',
  kinds: TRACED_KINDS,
  generator: 'tracegate generate',
  harvestCost: 1,
  runsReplies: false,
  constantFloor: true,
};
