import { z } from 'zod';
import { QUESTION_KINDS } from './kinds.js';
import { templateSchema } from './instance.js';
import { complexitySchema } from './complexity.js';

/**
 * oracle.json — SWE-Flux's interchange format (its four keys, unchanged) plus
 * a `meta` block of ours recording where the answer came from.
 */
export const oracleSchema = z.object({
  question_kind: z.enum(QUESTION_KINDS),
  question: z.string(),
  template_answer: templateSchema,
  oracle_answer: z.unknown().refine((v) => v !== undefined, 'oracle_answer is required'),
  meta: z.object({
    instance_id: z.string(),
    instance_hash: z.string(),
    environment_digest: z.string(),
    /** Exact interpreter version the oracle was harvested on (sys.version). */
    python: z.string(),
    tracer_version: z.string(),
    /** How many independent harvest runs agreed on this answer. */
    runs_agreed: z.number().int().positive(),
    harvested_at: z.string(),
    /** pytest's exit code in the run the answer came from (0, or 1 for expected failures). */
    pytest_exit_code: z.number().int().nullable().optional(),
    /** The environment's source (packages, git, image) and where it ran, in words. */
    environment: z.object({ source: z.string(), runtime: z.string() }).optional(),
    /**
     * World-model kinds: where the measurement came from (machine, runtime,
     * runs and their spread, tolerance band, mutant, signal, what ran) and
     * every harvest's answer (`harvests`). tracer/README.md, "World-model kinds".
     */
    measurement: z.record(z.string(), z.unknown()).optional(),
    /** B1/B2: what the reference reply did against each version (contracts/comet.ts). */
    verification: z.record(z.string(), z.unknown()).optional(),
    /** Traced kinds and B1/B2: the item's intrinsic complexity (contracts/complexity.ts). */
    complexity: complexitySchema.optional(),
  }),
});
export type Oracle = z.infer<typeof oracleSchema>;

/** A block of a source file: its exact text and the line it starts at. */
const sourceBlockSchema = z.strictObject({
  first_line: z.number().int().positive(),
  source: z.string(),
});

/**
 * The prompt's slice, as the tracer makes it before anything runs, from the
 * package's source alone (tracer/tracegate_tracer/prompt/callees.py; never the
 * trace): the functions of the target's package the target may reach by
 * static resolution, two calls deep, in source order (closest first within
 * the cap: `truncated`, the rest `named`), the calls that could not be
 * resolved, and the target module's preamble (top-level imports and simple
 * constants).
 */
export const sliceSchema = z.strictObject({
  functions: z.array(sourceBlockSchema.extend({ file: z.string(), func: z.string() })),
  preamble: z.strictObject({
    file: z.string(),
    blocks: z.array(sourceBlockSchema),
    truncated: z.boolean().optional(),
  }),
  truncated: z.boolean(),
  /** Reachable functions past the cap: named, not shown. */
  named: z.array(z.string()),
  /** Call sites of the target that may reach the package but resolve only at run time (`handler(…)`). */
  unresolved: z.array(z.string()),
});
export type CodeSlice = z.infer<typeof sliceSchema>;

/**
 * What the prompt builder may show of the executed code: the target's source,
 * and (oracles harvested by tracers that record it) the executed slice. The
 * tracer's result line carries exactly this (contracts/tracer-protocol.ts), so
 * what the cold path accepts is what the cache reads back.
 */
export const contextSchema = z.strictObject({
  file: z.string(),
  func: z.string(),
  first_line: z.number().int().positive(),
  source: z.string(),
  slice: sliceSchema.optional(),
  /**
   * What an answer may depend on besides the code: the interpreter's version and the
   * target package's distribution with its version, read from the environment (never a run).
   */
  environment: z
    .strictObject({ python: z.string(), packages: z.record(z.string(), z.string()) })
    .optional(),
  /** The test files the instance runs, as the tracer read them in the sandbox. */
  tests: z.array(z.strictObject({ name: z.string(), source: z.string() })).optional(),
  /**
   * B1/B2: example calls on which the buggy and the correct version agree, with what the
   * buggy version does (how the function is called; never the input that exposes the bug).
   */
  calls: z
    .array(
      z.strictObject({
        input: z.unknown(),
        outcome: z.enum(['ok', 'crash', 'timeout']),
        return: z.string().optional(),
        stdout: z.string().optional(),
        exception: z.string().optional(),
      }),
    )
    .optional(),
});
export type CodeContext = z.infer<typeof contextSchema>;

/** A cache entry: the oracle and the code context harvested with it. */
export const cachedOracleSchema = z.object({ oracle: oracleSchema, context: contextSchema });
export type CachedOracle = z.infer<typeof cachedOracleSchema>;

/** Per-instance harvest outcome as the pipeline sees it. */
export type HarvestOutcome =
  | { status: 'ok'; entry: CachedOracle; fromCache: boolean }
  | { status: 'invalid' | 'timeout' | 'error'; reason: string };
