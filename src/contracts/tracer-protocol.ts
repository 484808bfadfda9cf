import { z } from 'zod';
import { templateSchema } from './instance.js';
import { QUESTION_KINDS } from './kinds.js';
import { contextSchema } from './oracle.js';
import { verificationResultSchema } from './comet.js';
import { complexitySchema } from './complexity.js';

/**
 * The protocol between the host and tracer/harvest.py (tracer/README.md,
 * "The driver"): the plan the host sends, and the result line the tracer
 * writes back for each of its specs. Every object is strict: a key one side
 * does not know is an error on the other, never dropped in silence. The
 * tracer's tests validate both against the JSON Schemas generated from
 * these (tracer/protocol/*.schema.json), and tracer/tracegate_tracer/plan.py
 * refuses keys these do not declare.
 */

/** Where a question points, as the tracer looks it up (relative to site-packages or the run directory). */
const tracerTargetSchema = z.strictObject({
  file: z.string(),
  /** The function's `__qualname__`. */
  function: z.string(),
});

/** A seeded mutant (world-model kinds): `original` replaced once by `replacement` on `line` of `file`. */
const mutantSchema = z.strictObject({
  file: z.string(),
  line: z.number().int().positive(),
  original: z.string(),
  replacement: z.string(),
});

/** One instance of a tracer plan, paths as the tracer sees them. */
export const planSpecSchema = z.strictObject({
  id: z.string(),
  /** The instance's directory (read-only to the tests). */
  dir: z.string(),
  /** pytest node ids, relative to `cwd`. */
  tests: z.array(z.string()).min(1),
  kind: z.enum(QUESTION_KINDS),
  target: tracerTargetSchema,
  /** The declarative query (src/contracts/query-options.ts says which options each kind and mode takes); absent: `{}`. */
  query: z.record(z.string(), z.unknown()).optional(),
  /** Absent: 60 s (600 s for a SWE-Flux instance). */
  timeout_seconds: z.number().positive().optional(),
  /** The instance's own answer parser (a file in its directory), if any. */
  parser: z.string().nullable().optional(),
  /** Where pytest runs; absent: `dir`. */
  cwd: z.string().optional(),
  /**
   * The environment's repository checkout (git and image sources): `file` fields of code under it
   * (not installed into site-packages) are named relative to it, as SWE-Flux names them, and a
   * target file may be given relative to it.
   */
  repo_root: z.string().optional(),
  /** A failing test may still be an oracle (world-model kinds ask about failures). */
  expect_failure: z.boolean().optional(),
  /** Echoed back in the result, so the host can check whose result it reads. */
  instance_hash: z.string().optional(),
  env_digest: z.string().optional(),
  /**
   * A fresh variant (tracer/tracegate_tracer/variants/variant.py): the epoch whose pool of edits of the
   * tests it draws from, and either, with `variant_search`, the search over the whole pool
   * (tracer/tracegate_tracer/variants/search.py), or one candidate the search answered to harvest alone:
   * its index in the pool and its edit.
   */
  variant_epoch: z.number().int().optional(),
  variant_candidate: z.number().int().nonnegative().optional(),
  variant_edit: z
    .strictObject({
      file: z.string(),
      edits: z
        .array(
          z.tuple([
            z.number().int(),
            z.number().int(),
            z.number().int(),
            z.number().int(),
            z.string(),
          ]),
        )
        .min(1)
        .max(64),
    })
    .optional(),
  variant_search: z.boolean().optional(),
  /** A seeded mutant applied before the tests run (world-model kinds; tracer/tracegate_tracer/world/measure.py). */
  mutant: mutantSchema.optional(),
  /** A SWE-Flux-format instance: run by its own harness (tracer/tracegate_tracer/swe_flux.py). */
  swe_flux: z.strictObject({ qa: z.string(), instance: z.string() }).optional(),
  /** Tests and benchmarks only: the recorder backend (absent: $TRACEGATE_BACKEND, else auto). */
  backend: z.enum(['auto', 'settrace', 'monitoring']).optional(),
  /** Tests only: a lower event cap, to reach a trace overflow cheaply. */
  max_events: z.number().int().positive().optional(),
  /**
   * Tracer tests only (the host never sends it): B1/B2 run without the package's own mount, on
   * a host where none can be made. Without a mount the correct version stays readable.
   */
  unmasked_for_tests: z.boolean().optional(),
});
export type PlanSpec = z.infer<typeof planSpecSchema>;

/** A B2 reply's runs: against each version, then against each version's respelling. */
export const B2_RUNS = ['buggy', 'correct', 'buggy_respelled', 'correct_respelled'] as const;
export type B2Run = (typeof B2_RUNS)[number];

/**
 * A reply of B1/B2 to run against the buggy and the correct version (tracer/tracegate_tracer/comet/verify.py):
 * its instance's target and mutant, and the reply (B1 `{input}`, B2 `{test}`). Always a group of its own.
 * B2's `runs`: which of its runs this container runs (the host sends one: no state of one run can reach
 * another); absent, all in one sandbox, the respelled ones when the plain ones tell the versions apart.
 */
export const verifySpecSchema = z.strictObject({
  id: z.string(),
  verify: z.strictObject({
    kind: z.enum(['B1_BuggyIO', 'B2_RegressionTest']),
    target: tracerTargetSchema,
    mutant: mutantSchema,
    reply: z.record(z.string(), z.unknown()),
    runs: z.array(z.enum(B2_RUNS)).min(1).optional(),
  }),
  timeout_seconds: z.number().positive().optional(),
  instance_hash: z.string().optional(),
  env_digest: z.string().optional(),
  /** Tracer tests only, as in a plan spec. */
  unmasked_for_tests: z.boolean().optional(),
});
export type VerifySpec = z.infer<typeof verifySpecSchema>;

/** A scouting spec (tracer/tracegate_tracer/generate/scout.py): what a test file runs of the packages. */
export const scoutSpecSchema = z.strictObject({
  id: z.string(),
  /** The import names whose code is scouted. */
  scout: z.strictObject({ packages: z.array(z.string()).min(1) }),
  dir: z.string(),
  tests: z.array(z.string()).min(1),
  /** Absent: 120 s. */
  timeout_seconds: z.number().positive().optional(),
  cwd: z.string().optional(),
});
export type ScoutSpec = z.infer<typeof scoutSpecSchema>;

/** The plan tracer/harvest.py runs (its only argument is this file). */
export const tracerPlanSchema = z.strictObject({
  /** Private scratch space of the driver (traces, configs); the host never reads it. */
  work_dir: z.string().min(1),
  /** Per-group uids for the tests (the driver runs as root in the container); null on the host. */
  isolation: z.strictObject({ uid_base: z.number().int().positive() }).nullable(),
  instances: z.array(z.union([planSpecSchema, scoutSpecSchema, verifySpecSchema])),
  /** Default true: one test run records every target its specs name. */
  share_runs: z.boolean().optional(),
  /** Tests and debugging only: keep each group's traces in work_dir. */
  keep_traces: z.boolean().optional(),
});
export type TracerPlan = z.infer<typeof tracerPlanSchema>;

/** The first path inside `value` holding a number JSON text cannot carry back (an overflowing literal). */
function unrepresentable(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unrepresentable(item, `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = unrepresentable(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * A value read from JSON that writes back as the same JSON: a number
 * literal too large for a double parses as Infinity, which the cache would
 * write as null.
 */
const jsonValueSchema = z.unknown().superRefine((value, ctx) => {
  const where = unrepresentable(value, '');
  if (where !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: `the number at ${where || '(the value)'} is out of range for JSON (a double)`,
    });
});

/** A result's run statistics (group.py `base_result`, and what each stage adds). */
const statsSchema = z.strictObject({
  events: z.number().int().nonnegative(),
  invocations: z.number().int().nonnegative(),
  /** pytest's exit code in the run (0, or 1 for expected failures); null when it did not run. */
  pytest_exit_code: z.number().int().nullable(),
  seconds: z.number().nonnegative(),
  /** The uid the group's tests ran as (null: no isolation). */
  uid: z.number().int().nullable().optional(),
  /** Which recording group (sandbox) of the plan the spec ran in. */
  group: z.number().int().nonnegative().optional(),
  /** The trace file of its recording, in the group's private work_dir. */
  trace: z.string().optional(),
  /** The run was redone traced from the start (a target module imported before the plugin loaded). */
  traced_from_start: z.boolean().optional(),
  /** What the driver had to do about the run (processes left running, output over the cap). */
  notes: z.array(z.string()).optional(),
  /** The recorder backend that ran. */
  backend: z.enum(['settrace', 'monitoring']).optional(),
  /** World-model kinds: the clean runs measured. */
  runs: z.number().int().positive().optional(),
  /** A variant search: where its call sites came from (the original's run in the plan, or its own scout). */
  sites_from: z.enum(['original', 'scout']).optional(),
  /**
   * The group did not run, and why: an earlier group's cleanup failed, so the container may hold what
   * that group left. Not the instance's failure: never remembered, harvested again.
   */
  not_run: z.string().min(1).max(2000).optional(),
});

/** World-model kinds: where the measurement came from (measure.py `_meta`). */
const measurementSchema = z.strictObject({
  /** Architecture, cpus, model, memory and the cgroup's limits, as far as they can be read. */
  machine: z.record(z.string(), z.unknown()),
  runtime: z.strictObject({ python: z.string(), implementation: z.string(), platform: z.string() }),
  clean_runs: z.number().int().positive(),
  /** The machine's 1-minute load average before and after the clean runs (null where unreadable). */
  load: z
    .strictObject({ before: z.number().nullable(), after: z.number().nullable().optional() })
    .optional(),
  /** Each clean run's wall time and their spread (only with more than one run). */
  wall_ms: z
    .strictObject({
      runs: z.array(z.number()),
      median: z.number(),
      min: z.number(),
      max: z.number(),
      spread: z.number(),
    })
    .optional(),
  /** The memory run's peaks (tracemalloc and resident). */
  peak: z.record(z.string(), z.unknown()).optional(),
  /** The signal that killed the test, if one did. */
  signal: z.string().optional(),
  mutant: mutantSchema.optional(),
  /** Every name that ran in the profile runs (the execution rate of predicted names). */
  executed: z
    .strictObject({ time_func: z.array(z.string()), time_line: z.array(z.string()) })
    .optional(),
  /**
   * W4: per ranked list of the answer, the names within a quarter of its hottest value: two harvests
   * whose leaders differ agree only when each leader is near the top of the other's profile.
   */
  near_top: z.record(z.string(), z.array(z.string())).optional(),
  /** The top-level package counted as the repository's code. */
  scope: z.string(),
  /** How far two harvests of the measured number may differ and still agree. */
  band: z
    .strictObject({ ratio: z.number().positive(), floor: z.number().nonnegative() })
    .optional(),
});

/** One result line of tracer/harvest.py: `{"tracegate_result": 1, ...}`, one per spec of the plan. */
export const tracerResultSchema = z.strictObject({
  tracegate_result: z.literal(1),
  id: z.string(),
  /** Echoes of the plan's spec: whose result this is. */
  instance_hash: z.string().optional(),
  env_digest: z.string().optional(),
  status: z.enum(['ok', 'invalid', 'timeout', 'error']),
  /** Why the status is not ok. */
  reason: z.string().optional(),
  answer: jsonValueSchema.optional(),
  /** Generated from the query by the tracer; null for instances with their own parser. */
  question: z.string().nullable(),
  template_answer: templateSchema.nullable(),
  /** The prompt's code: exactly what the oracle cache stores beside the oracle. */
  context: contextSchema.optional(),
  /** The interpreter's sys.version. */
  python: z.string(),
  tracer_version: z.string(),
  stats: statsSchema,
  /** World-model kinds: the measurement's provenance (machine, runs, band, …). */
  measurement: measurementSchema.optional(),
  /** B1/B2: what the reply (or, in a harvest, the reference) did against each version. */
  verification: verificationResultSchema.optional(),
  /** Traced kinds: the item's intrinsic complexity. */
  complexity: complexitySchema.optional(),
});
export type TracerResult = z.infer<typeof tracerResultSchema>;
