import { COMET_KINDS } from '../../contracts/kinds.js';
import type { KindFamily } from '../family.js';
import { summarizeComet } from './score.js';

/**
 * Comet's program-state kinds (B1 buggy input/output, B2 regression test): a function with a bug
 * whose correct version is hidden; the reply is run in the sandbox against both versions
 * (tracer/tracegate_tracer/comet/verify.py) and scored on what happened (docs/comet.md).
 */
export const comet: KindFamily = {
  name: 'comet',
  kinds: COMET_KINDS,
  generator: 'scripts/generate-comet.py',
  harvestCost: 8,
  // Its question is its bug: a fresh item is a fresh mutant with its own killing input, not an
  // edit of a test.
  fixed: 'bug-kind',
  runsReplies: true,
  // A reply is scored by running it, not by comparing it: no constant answer to measure.
  constantFloor: false,
  summaryKey: 'comet',
  summarize: (records) => summarizeComet(records),
};
