import { WORLD_KINDS, type WorldKind } from '../../contracts/kinds.js';
import type { InstanceRecord } from '../../contracts/results.js';
import type { KindFamily } from '../family.js';
import { agreedAnswer, pairedAnswer } from './agreement.js';
import { worldConstants } from './chance.js';
import { passesWorld, summarizeWorld, worldRecord, type WorldMeasures } from './score.js';

/**
 * The software world-model kinds of the JetBrains study (W1 outcome, W2 peak memory, W3 wall time,
 * W4 profile): what one test does as a whole, measured in clean runs (tracer/README.md,
 * "World-model kinds"; docs/world-model.md).
 */
export const world: KindFamily = {
  name: 'world',
  kinds: WORLD_KINDS,
  generator: 'scripts/generate-world.py',
  harvestCost: 4,
  fixed: 'world-model-kind',
  runsReplies: false,
  constantFloor: true,
  timedKinds: ['W2_PeakMemory', 'W3_WallTime', 'W4_Profile'],
  pairedAnswer,
  agreedAnswer,
  passes: (kind, truth, prediction, factor) =>
    passesWorld(kind as WorldKind, truth, prediction, factor),
  constants: worldConstants,
  recordExtras: (kind, truth, prediction, measurement) =>
    worldRecord(kind as WorldKind, truth, prediction, measurement),
  summaryKey: 'world',
  summarize: (records: readonly InstanceRecord[]) =>
    summarizeWorld(
      records.map((r) => ({
        kind: r.kind,
        measures: r.world as WorldMeasures | undefined,
        oracle: r.oracle,
      })),
    ),
};
