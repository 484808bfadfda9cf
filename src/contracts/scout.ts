import { z } from 'zod';

/** What the scout saw of one package function (tracer/tracegate_tracer/generate/scout.py). */
export const scoutedFunctionSchema = z.object({
  file: z.string(),
  qualname: z.string(),
  first_line: z.number().int(),
  invocations: z.number().int(),
  /** The first invocations: [test id, steps, exception type that escaped or null]. */
  described: z.array(z.tuple([z.string(), z.number().int(), z.string().nullable()])),
  lines: z.record(z.string(), z.number().int()),
  exceptions: z.record(z.string(), z.number().int()),
  callees: z.array(z.tuple([z.string(), z.string(), z.number().int()])),
  variables: z.record(
    z.string(),
    z.object({ types: z.array(z.string()), values: z.array(z.string()) }),
  ),
  line_names: z.record(z.string(), z.array(z.string())),
});
export type ScoutedFunction = z.infer<typeof scoutedFunctionSchema>;

/** A question the proposer would ask (harvested and screened before it becomes an instance). */
export const candidateSchema = z.object({
  kind: z.string(),
  query: z.record(z.string(), z.unknown()),
  target: z.object({ file: z.string(), function: z.string() }),
  tests: z.array(z.string()),
});
export type Candidate = z.infer<typeof candidateSchema>;

/** One scout result line of the tracer. */
export const scoutResultSchema = z.object({
  tracegate_result: z.literal(1),
  id: z.string(),
  scout: z.literal(true),
  status: z.enum(['ok', 'invalid', 'timeout', 'error']),
  reason: z.string().nullable().optional(),
  facts: z
    .object({ roots: z.array(z.string()), functions: z.array(scoutedFunctionSchema) })
    .optional(),
  candidates: z.array(candidateSchema).optional(),
  skipped: z.array(z.object({ target: z.string(), reason: z.string() })).optional(),
});
export type ScoutResult = z.infer<typeof scoutResultSchema>;
