import { z } from 'zod';

/** A feature's value: a count. */
const count = z.number().int().nonnegative().max(1e12);
/** A score on 0..10. */
const scoreSchema = z.number().min(0).max(10);

/**
 * Traced kinds and B1/B2: the item's intrinsic complexity, measured at harvest from the part of the
 * run its question reads (B1/B2: the buggy version's run on the reference input), its answer and
 * the prompt's code (tracer/tracegate_tracer/queries/complexity.py): three component scores, their
 * mean, and every feature behind them.
 */
export const complexitySchema = z.strictObject({
  version: z.number().int().positive(),
  score: scoreSchema,
  semantic: scoreSchema,
  answer: scoreSchema,
  navigation: scoreSchema,
  /** Every feature behind the scores (queries/complexity.py says what each counts). */
  features: z.strictObject({
    semantic: z.strictObject({
      steps: count,
      lines: count,
      branches: count,
      turns: count,
      invocations: count,
      exceptions: count,
      /** Only for kinds that record calls. */
      calls: count.optional(),
      callees: count.optional(),
      depth: count.optional(),
      /** Only for kinds that ask about variables. */
      values: count.optional(),
    }),
    answer: z.strictObject({ scalars: count, elements: count, depth: count, chars: count }),
    navigation: z.strictObject({
      functions: count,
      files: count,
      tests: count,
      test_lines: count,
      indirect: z.union([z.literal(0), z.literal(1)]),
    }),
  }),
});
export type Complexity = z.infer<typeof complexitySchema>;

/**
 * Component scores closer than this are equal when a variant is compared with its original
 * (the tracer's `complexity.RESOLUTION`): 1% of the scale, what an answer's spelling moves
 * (`"none"` for `"strictly_increasing"` lowers the answer score by 0.05), not a different
 * amount of reasoning.
 */
export const COMPLEXITY_RESOLUTION = 0.1;
