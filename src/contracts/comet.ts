import { z } from 'zod';
import type { CachedOracle } from './oracle.js';
import type { LoadedInstance } from './suite.js';

/**
 * Comet's kinds (B1_BuggyIO, B2_RegressionTest): what a reply did when the
 * tracer ran it against the buggy and the correct version
 * (tracer/tracegate_tracer/comet/verify.py). The tracer writes it; the host scores it
 * (families/comet/score.ts) and caches it by instance, environment, tracer and
 * reply (ports: VerificationStore).
 */

/**
 * One B1 call: how it ended, what it returned or raised, what it printed. A call
 * that does not finish within its bounds is a `timeout` whichever bound it
 * reached (past its time, or out of memory: docs/comet.md, "Bounds").
 */
export const callRunSchema = z.strictObject({
  outcome: z.enum(['ok', 'crash', 'timeout']),
  /** The return value's repr (addresses masked, capped with its length and digest). */
  return: z.string().optional(),
  stdout: z.string().optional(),
  /** The exception class: the bare name for builtins, else module.qualname (or a signal's name). */
  exception: z.string().optional(),
  message: z.string().optional(),
  seconds: z.number().nonnegative(),
});
export type CallRun = z.infer<typeof callRunSchema>;

/**
 * One B2 run of the reply's test file under pytest, judged by one rule whichever
 * bound a runaway reaches first (docs/comet.md, "Bounds"): `pass` when pytest
 * said every test passed, `fail` when a test started and the run did not pass
 * (a failure, or the run ended otherwise once tests ran: out of memory, past
 * its time, killed), `error` when no test started.
 */
export const testRunSchema = z.strictObject({
  verdict: z.enum(['pass', 'fail', 'error']),
  exit_code: z.number().int().nullable(),
  seconds: z.number().nonnegative(),
  /** Why an `error` (pytest's own line: a collection error, a missing module), or how a `fail` ended
   * when it was not pytest's own (out of memory, past its time, killed). */
  reason: z.string().optional(),
  /** The test's process called the function under test (a run whose test never does counts for nothing). */
  called: z.boolean(),
});
export type TestRun = z.infer<typeof testRunSchema>;

const b1Verification = z.strictObject({
  kind: z.literal('B1_BuggyIO'),
  /** The input could not run at all: not JSON or literals, the wrong arity, too large. */
  refused: z.string().optional(),
  runs: z.strictObject({ buggy: callRunSchema, correct: callRunSchema }).optional(),
});

/** B2's runs: the plain ones always, the respelled ones only when the plain ones tell the versions apart. */
const b2Runs = z.strictObject({
  buggy: testRunSchema,
  correct: testRunSchema,
  buggy_respelled: testRunSchema.optional(),
  correct_respelled: testRunSchema.optional(),
});
const b2Verification = <R extends z.ZodType>(runs: R) =>
  z.strictObject({
    kind: z.literal('B2_RegressionTest'),
    refused: z.string().optional(),
    /** Each run in a container of its own. */
    runs: runs.optional(),
  });

/** A reply's verification: the reply refused (why), or its runs against each version. */
export const verificationSchema = z.union([b1Verification, b2Verification(b2Runs)]);
/**
 * The result line's `verification`: as above, but a B2 container's holds the runs it was asked
 * for (one: stages/harvest/verify.ts joins them into the reply's verification).
 */
export const verificationResultSchema = z.union([b1Verification, b2Verification(b2Runs.partial())]);
export type Verification = z.infer<typeof verificationSchema>;
export type VerificationResult = z.infer<typeof verificationResultSchema>;

/** A reply as it is sent to be run: B1 its input (data, never code), B2 its test file. */
export type CometReply = { input: unknown } | { test: string };

/** What verifying one reply came to. */
export type VerifyOutcome =
  | { status: 'ok'; verification: Verification; cached: boolean }
  /** Verification itself failed (no engine, the environment changed, the tracer refused): never a pass. */
  | { status: 'error'; reason: string };

/** Runs replies in the sandbox (the app's, over the harvest backend and the verification cache). */
export interface Verifier {
  verify(loaded: LoadedInstance, oracle: CachedOracle, reply: CometReply): Promise<VerifyOutcome>;
}

/** What a scored B1/B2 record carries beside `correct` (results.json, the report). */
export const cometRecordSchema = z.strictObject({
  /** B1: the two versions behaved differently on the input. */
  exposed: z.boolean().optional(),
  /** B1: the predicted outcome (and return, output or exception) is what the buggy version did. */
  outcomeMatched: z.boolean().optional(),
  /** B2: each run's verdict (buggy, correct, and their respellings when run). */
  verdicts: z.record(z.string(), z.string()).optional(),
  /** Why the reply did not pass, in words (`no exposure`, `passes on both`, `reads the source`, …). */
  reason: z.string().optional(),
  /** B2: the reply's precondition, postcondition and explanation (shown, never scored). */
  text: z
    .strictObject({ precondition: z.string(), postcondition: z.string(), explanation: z.string() })
    .optional(),
  /** The verification came from the cache (no container ran). */
  cached: z.boolean().optional(),
});
export type CometRecord = z.infer<typeof cometRecordSchema>;
