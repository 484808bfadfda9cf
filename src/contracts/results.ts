import { z } from 'zod';
import { comparisonSchema } from './comparison.js';
import { QUESTION_KINDS } from './kinds.js';
import { cometRecordSchema } from './comet.js';
import { transcriptSchema } from './transcript.js';

export {
  toolBudgetSchema,
  transcriptSchema,
  transcriptTurnSchema,
  type ToolBudget,
  type Transcript,
  type TranscriptTurn,
} from './transcript.js';

/** Why an instance did not score as correct, when it is not simply a wrong answer. */
export const ERROR_CLASSES = [
  'empty',
  'no_json',
  'schema_mismatch',
  'truncated',
  'refused',
  'request_rejected',
  'response_too_large',
  'malformed_response',
  'harvest_invalid',
  'harvest_timeout',
  'harvest_error',
  'verification_error',
  'no_answer',
  'source_unavailable',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/**
 * The classes that mean no answer could be read from the reply (the model's output format, not
 * its reasoning): the query summary counts them, the comparison pairs them with the baseline's.
 */
export const FORMAT_ERRORS: ReadonlySet<ErrorClass> = new Set<ErrorClass>([
  'empty',
  'no_json',
  'schema_mismatch',
  'truncated',
  'refused',
  'no_answer',
]);

/**
 * Failures that are not the model's answer: no oracle (harvest), a request
 * the server rejected for this instance (400/413/422 — e.g. a prompt longer
 * than the served context), a reply too large to read, a 2xx whose body is
 * no reply at all on every attempt (`42`: the server's wrapper, not the
 * model's text), a B1/B2 reply that could not be run (no engine, the environment changed:
 * `verification_error`), no source for the repository tools to read (`source_unavailable`).
 * The gate excludes them from pairing and counts them; an empty, cut, unparsable or refused
 * reply, or none at all within the tool budget (`no_answer`), is the model's and scores as wrong. (Transport failures that survive
 * retries end the run: its unanswered instances are `incomplete.missing`.)
 */
export const INFRASTRUCTURE_ERRORS: ReadonlySet<ErrorClass> = new Set<ErrorClass>([
  'request_rejected',
  'response_too_large',
  'malformed_response',
  'harvest_invalid',
  'harvest_timeout',
  'harvest_error',
  'verification_error',
  'source_unavailable',
]);

/** One instance's outcome. Written as it completes (records.jsonl) and into results.json. */
export const instanceRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(QUESTION_KINDS),
  /** False when no oracle could be harvested: then it is not in any accuracy. */
  scored: z.boolean(),
  correct: z.boolean(),
  error: z.enum(ERROR_CLASSES).nullable(),
  detail: z.string().optional(),
  /** The question asked (cut at 1,000 characters), for the report's flipped items. */
  question: z.string().optional(),
  /** The instance file, relative to the suite root (check-run annotations point at it). */
  file: z.string().optional(),
  /** The model's raw reply (truncated to 4 KB). */
  prediction: z.string().optional(),
  parsed: z.unknown().optional(),
  oracle: z.unknown().optional(),
  tokensIn: z.number().default(0),
  tokensOut: z.number().default(0),
  latencyMs: z.number().default(0),
  retries: z.number().default(0),
  /** Answered from the response cache (same endpoint, model, revision, settings, prompt). */
  cached: z.boolean().optional(),
  /** With `--samples k` > 1: k, how many samples were correct, and pass@k (any correct). */
  samples: z.number().int().optional(),
  samplesCorrect: z.number().int().optional(),
  passAtK: z.boolean().optional(),
  /**
   * Whom the item shares a run with: `test` = environment + the first test's file,
   * `package` = the environment. The gate's clusters (items of one cluster are not independent).
   */
  cluster: z.object({ test: z.string(), package: z.string() }).optional(),
  /** sha256 of the oracle's kind, question, template and answer: items pair only when equal. */
  oracleDigest: z.string().optional(),
  /** True when `error` is an infrastructure failure (INFRASTRUCTURE_ERRORS), not the model's answer. */
  infrastructure: z.boolean().optional(),
  /** World-model kinds: what the instance adds to the study's metrics (src/families/world/score.ts). */
  world: z.record(z.string(), z.unknown()).optional(),
  /** B1/B2: the verification's parts (exposure, outcome, verdicts, why not) and B2's text parts. */
  comet: cometRecordSchema.optional(),
  /** Traced kinds: the item's combined complexity score (0..10), from its oracle (contracts/complexity.ts). */
  complexity: z.number().min(0).max(10).optional(),
  /** `context: repo`: what the model read before it answered (the scored sample's conversation). */
  transcript: transcriptSchema.optional(),
});
export type InstanceRecord = z.infer<typeof instanceRecordSchema>;

export const kindSummarySchema = z.object({
  total: z.number().int(),
  correct: z.number().int(),
  accuracy: z.number(),
  /** Wilson 95% interval of the accuracy. */
  ci95: z.tuple([z.number(), z.number()]),
  /**
   * The kind's floor on this selection: what the best constant answer scores
   * under the kind's pass rule (src/stages/score/chance.ts) — the answer, and
   * how many of the items with an oracle it passes.
   */
  chance: z
    .object({
      correct: z.number().int(),
      total: z.number().int(),
      accuracy: z.number(),
      answer: z.unknown(),
    })
    .optional(),
});
export type KindSummary = z.infer<typeof kindSummarySchema>;

export const summarySchema = z.object({
  total: z.number().int(),
  correct: z.number().int(),
  accuracy: z.number(),
  ci95: z.tuple([z.number(), z.number()]),
  byKind: z.record(z.string(), kindSummarySchema),
  /** Selected instances without an oracle (harvest failed); not in `total`. */
  unscored: z.number().int(),
  errors: z.record(z.string(), z.number().int()),
  tokensIn: z.number(),
  tokensOut: z.number(),
  retries: z.number(),
  /**
   * World-model kinds: the JetBrains study's metrics beside the pass rates —
   * outcome precision/recall/F1 (failure positive), log10 calibration of
   * memory and time (slope, bias, MAE), NDCG@5, Recall@5, execution rate.
   */
  world: z.record(z.string(), z.unknown()).optional(),
  /**
   * B1/B2: beside each pass rate, B1's exposure rate and outcome accuracy, and why replies
   * did not pass, by class (src/families/comet/score.ts).
   */
  comet: z.record(z.string(), z.unknown()).optional(),
  /**
   * Accuracy by complexity band (easy, medium, hard, very hard: src/stages/score/complexity.ts)
   * over the items whose oracle carries a complexity.
   */
  byComplexity: z.record(z.string(), kindSummarySchema).optional(),
  /** Fresh variants beside their originals: the pairs both with a complexity, each side's median score. */
  variantComplexity: z
    .object({ pairs: z.number().int(), original: z.number(), variant: z.number() })
    .optional(),
});
export type Summary = z.infer<typeof summarySchema>;

/** How the model was asked, and what it cost: totals over the run's answered instances. */
export const querySummarySchema = z.object({
  /** Protocol (`openai-chat`, `openai-completions`, `anthropic`). */
  api: z.string(),
  samples: z.number().int(),
  /** Generation settings sent with every request. */
  settings: z.record(z.string(), z.unknown()),
  answered: z.number().int(),
  cacheHits: z.number().int(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  retries: z.number(),
  latencyMs: z.number(),
  meanLatencyMs: z.number(),
  /** Replies that scored wrong because no answer could be parsed, by class. */
  parseFailures: z.record(z.string(), z.number().int()),
  /** With samples > 1: fraction of scored instances with at least one correct sample. */
  passAtK: z.number().optional(),
  /** `context: repo`: requests, tool calls and refused calls of the scored samples, in all and per kind. */
  tools: z
    .object({
      turns: z.number().int(),
      calls: z.number().int(),
      refused: z.number().int(),
      byKind: z.record(
        z.string(),
        z.object({
          items: z.number().int(),
          turns: z.number().int(),
          calls: z.number().int(),
          tokensIn: z.number(),
          tokensOut: z.number(),
        }),
      ),
    })
    .optional(),
});
export type QuerySummary = z.infer<typeof querySummarySchema>;

/** What makes two runs comparable: digests of everything the scores depend on. */
export const provenanceSchema = z.object({
  /** sha256 over the selected instances' ids and content hashes. */
  instances: z.string(),
  /** sha256 over the effective environments' names and digests. */
  environments: z.string(),
  /** Digest of the tracer's code (it keys every oracle). */
  tracer: z.string(),
  /** The prompt's version: runs of different versions are not compared. */
  prompt: z.string(),
  /** The scorer, `name@version`: runs of different scorers are not compared. */
  scorer: z.string(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

/**
 * How a selection is split over a matrix (stages/select/shard.ts): the digest of the whole
 * selection, its ids in order, the part (1-based) of each, and each part's expected cost.
 */
export const shardPlanSchema = z.object({
  count: z.number().int().min(1),
  selection: z.string(),
  ids: z.array(z.string()),
  part: z.array(z.number().int().min(1)),
  expected: z.array(z.number()),
});
export type ShardPlan = z.infer<typeof shardPlanSchema>;

/** The results format this tracegate reads and writes. */
export const RESULTS_SCHEMA = 'tracegate/results@2';

/** results.json: everything needed to compare a later run against this one. */
/** The memorisation signal over some pairs (an original and its variant, both answered). */
const memorisationRowSchema = z.object({
  pairs: z.number().int(),
  clusters: z.number().int(),
  /** Accuracy on the originals and on their variants, and original − variant. */
  original: z.number(),
  variant: z.number(),
  difference: z.number(),
  /** One-sided bounds of the difference and the p-value of "originals no better" (when testable). */
  lower: z.number().optional(),
  upper: z.number().optional(),
  p: z.number().optional(),
  flagged: z.boolean(),
});

export const resultsSchema = z.object({
  schema: z.literal(RESULTS_SCHEMA, {
    error: (issue) =>
      `this file is ${JSON.stringify(issue.input ?? null)}, written by another version of tracegate; ` +
      `this one reads ${RESULTS_SCHEMA} (re-run it with this version)`,
  }),
  model: z.object({ endpoint: z.string(), name: z.string(), revision: z.string().optional() }),
  promptVersion: z.string(),
  /** Prompt version, context mode and budget. */
  prompt: z.object({ version: z.string(), context: z.string(), budget: z.string() }).optional(),
  query: querySummarySchema.optional(),
  commit: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  harvest: z.object({
    cached: z.number(),
    harvested: z.number(),
    failed: z.number(),
    /** Of the failed, remembered from an earlier run with the same tracer and environment (not harvested again). */
    remembered: z.number().optional(),
    backend: z.string(),
    /** Each effective environment: digest, source kind and where it ran. */
    environments: z
      .array(
        z.object({ name: z.string(), digest: z.string(), source: z.string(), runtime: z.string() }),
      )
      .optional(),
  }),
  summary: summarySchema,
  provenance: provenanceSchema,
  instances: z.array(instanceRecordSchema),
  /** Set when the run was interrupted: why, and the selected instances without a record. */
  incomplete: z.object({ reason: z.string(), missing: z.array(z.string()) }).optional(),
  /** Suite files that could not be used (each names the file and the rule or field). */
  rejected: z
    .array(z.object({ file: z.string(), id: z.string().optional(), reason: z.string() }))
    .optional(),
  /** The gate's comparison with the baseline (also written alone as comparison.json by `compare`). */
  comparison: comparisonSchema.optional(),
  /**
   * Set when a failing verdict was accepted by the override label: the check is
   * neutral, the job passes, the comment and the history say so.
   */
  accepted: z.object({ label: z.string(), note: z.string().optional() }).optional(),
  /**
   * With `--variants`: the epoch (variants pair only within one), how many were
   * harvested, how many passed the screen (and were asked), and why the rest were dropped.
   */
  variants: z
    .object({
      epoch: z.number().int(),
      mode: z.enum(['add', 'only']),
      tried: z.number().int(),
      valid: z.number().int(),
      dropped: z.record(z.string(), z.number().int()),
      /** The same per kind (absent in results written before 0.2). */
      byKind: z
        .record(
          z.string(),
          z.object({
            tried: z.number().int(),
            valid: z.number().int(),
            dropped: z.record(z.string(), z.number().int()),
          }),
        )
        .optional(),
      /** Selected instances that cannot vary, by reason (world-model kinds: measured, not traced). */
      unvariable: z.record(z.string(), z.number().int()).optional(),
      /** Each dropped variant: the instance it was of, its kind, the rule and what failed it. */
      drops: z
        .array(z.object({ id: z.string(), kind: z.string(), rule: z.string(), detail: z.string() }))
        .optional(),
    })
    .optional(),
  /**
   * How the run selected its items (absent in results written before 0.2): a run with this
   * one as its baseline selects the same unless told otherwise, so every item pairs.
   */
  selection: z
    .object({
      categories: z.array(z.string()).optional(),
      ids: z.array(z.string()).optional(),
      sample: z.number().int().optional(),
      seed: z.number().int(),
      variants: z
        .object({
          mode: z.enum(['add', 'only']),
          count: z.number().int().optional(),
          epoch: z.number().int(),
        })
        .optional(),
    })
    .optional(),
  /**
   * With variants beside their originals: original − variant accuracy over the pairs this run
   * answered both of, with the gate's one-sided bounds at `level`; `flagged` when the originals
   * are significantly better (possible contamination). Per kind too (bounds only where testable).
   */
  memorisation: memorisationRowSchema
    .extend({
      level: z.number(),
      byKind: z.record(z.string(), memorisationRowSchema),
    })
    .optional(),
  /**
   * A shard's results (`shard: i/n`): which part of which plan, and the items it attempted (the
   * part's and their variants) with their content hashes, so the merge can check the parts
   * belong together and rebuild the whole run's provenance. No verdict: the merge gives it.
   */
  shard: shardPlanSchema
    .extend({
      index: z.number().int().min(1),
      attempted: z.array(z.tuple([z.string(), z.string()])),
    })
    .optional(),
  /** The results of `merge`: how many shards were planned, and which were missing (1-based). */
  merged: z.object({ count: z.number().int(), missing: z.array(z.number().int()) }).optional(),
  /** With `--price`: the run's token cost in USD at that price (per million tokens). */
  cost: z
    .object({
      usd: z.number(),
      price: z.object({ input: z.number(), output: z.number() }),
    })
    .optional(),
});
export type Results = z.infer<typeof resultsSchema>;
/** How a run selected its items (`selection`): a later run with it as baseline inherits it. */
export type SelectionRecord = NonNullable<Results['selection']>;
