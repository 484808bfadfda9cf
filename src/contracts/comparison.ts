import { z } from 'zod';

/** The gate's answer (docs/gate.md states each rule). */
export const VERDICTS = [
  'pass',
  'fail',
  'inconclusive',
  'no-baseline',
  'baseline-unavailable',
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What the gate says of one kind (and of the overall row). */
export const ROW_STATUSES = ['regressed', 'improved', 'within noise', 'too few items'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** How items are grouped into clusters that are not independent. */
export const CLUSTER_BY = ['test', 'package', 'none'] as const;
export type ClusterBy = (typeof CLUSTER_BY)[number];

/** `overall`: the overall interval decides a pass; `per-kind`: every kind's must too. */
export const GATE_SCOPES = ['overall', 'per-kind'] as const;
export type GateScope = (typeof GATE_SCOPES)[number];

/** What the candidate decides on an inconclusive verdict (the check conclusion, the exit code). */
export const ON_INCONCLUSIVE = ['neutral', 'pass', 'fail'] as const;
export type OnInconclusive = (typeof ON_INCONCLUSIVE)[number];

/**
 * What a run decides when its baseline should exist but could not be looked
 * up (the API or the network failed): neutral by default, or fail. Never pass:
 * missing data is never a pass.
 */
export const ON_BASELINE_UNAVAILABLE = ['neutral', 'fail'] as const;
export type OnBaselineUnavailable = (typeof ON_BASELINE_UNAVAILABLE)[number];

/**
 * Why an item of both runs is not paired. Harvest failures and infrastructure
 * failures (a request the server rejected, a reply too large to read, no
 * answer because the run stopped) are not the model's answers: excluded and
 * counted, never scored as wrong and never silently dropped.
 */
export const EXCLUSION_REASONS = [
  'harvest failed in this run',
  'harvest failed in the baseline',
  'no answer in this run (infrastructure)',
  'no answer in the baseline (infrastructure)',
  'not answered: this run is incomplete',
  'not answered: the baseline is incomplete',
  'oracle changed',
  'oracle digest missing',
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** Why a verdict is inconclusive, when it is. */
export const INCONCLUSIVE_CAUSES = [
  'no overlap',
  'too few items',
  'too many excluded',
  'kind missing',
  'kind too few items',
  'drop not excluded',
  'shard missing',
] as const;
export type InconclusiveCause = (typeof INCONCLUSIVE_CAUSES)[number];

/** The gate's settings, as the comparison used them. */
export const gatePolicySchema = z.object({
  /** A drop (0..1) smaller than this never fails; a pass must exclude a drop this large. */
  minDrop: z.number(),
  /** A significant gain at least this large is reported `improved`. */
  minGain: z.number(),
  /** Family-wise one-sided error rate over overall + kinds (and across looks with top-up). */
  alpha: z.number(),
  clusterBy: z.enum(CLUSTER_BY),
  gate: z.enum(GATE_SCOPES),
  /** Above this share of excluded items (of those both runs hold) the verdict is at best inconclusive. */
  maxExcluded: z.number(),
  /** A row with fewer paired items, or fewer clusters, is `too few items` (not tested). */
  minItems: z.number().int(),
  minClusters: z.number().int(),
});
export type GatePolicy = z.infer<typeof gatePolicySchema>;

/** The statistics of one row, present when it has at least two clusters. */
export const rowTestSchema = z.object({
  /** The Agresti–Min-adjusted change the interval is centred on. */
  centre: z.number(),
  /** Cluster-robust standard error (CR1) and its degrees of freedom (clusters − 1). */
  se: z.number(),
  df: z.number(),
  /** One-sided bounds at this look's level: the change is ≥ lower, and ≤ upper. */
  lower: z.number(),
  upper: z.number(),
  pDrop: z.number(),
  pGain: z.number(),
  /** Holm-adjusted over the tested rows (absent when the row was too small to test). */
  pDropAdjusted: z.number().optional(),
  pGainAdjusted: z.number().optional(),
  /** Smallest drop this sample detects with 80% power, at this look's level. */
  mde: z.number(),
  /** Paired items to add for 80% power to exclude `minDrop` if the models are truly equal. */
  needed: z.number().int(),
});

/** One row of the comparison: overall, or a kind, on its paired items. */
export const rowSchema = z.object({
  paired: z.number().int(),
  clusters: z.number().int(),
  /** Mean success rate on the paired items (per-item rate over k samples). */
  baseline: z.number(),
  candidate: z.number(),
  delta: z.number(),
  lost: z.number().int(),
  gained: z.number().int(),
  status: z.enum(ROW_STATUSES),
  test: rowTestSchema.optional(),
});
export type Row = z.infer<typeof rowSchema>;
export const kindRowSchema = rowSchema.extend({ kind: z.string() });
export type KindRow = z.infer<typeof kindRowSchema>;

/**
 * A group of kinds pooled (traced single-test, traced multi-test, world model, bug reasoning),
 * with the same statistics as a kind, for kinds too small to decide alone. Descriptive: tested
 * with Holm among the groups only, it never changes the verdict (overall + kinds decide).
 */
export const groupRowSchema = rowSchema.extend({
  group: z.string(),
  kinds: z.array(z.string()),
});
export type GroupRow = z.infer<typeof groupRowSchema>;

/**
 * Replies that could not be read as an answer (empty, no JSON, not the template, cut, refused,
 * none within the tool budget) on the paired items, this run against the baseline: a checkpoint
 * that broke its output format is told apart from one that reasons worse.
 */
export const formatShiftSchema = z.object({
  paired: z.number().int(),
  candidate: z.number().int(),
  baseline: z.number().int(),
  /** Per class, this run's and the baseline's counts. */
  byClass: z.record(
    z.string(),
    z.object({ candidate: z.number().int(), baseline: z.number().int() }),
  ),
  /** One-sided exact sign test on the items where only one run failed the format (this run more). */
  pWorse: z.number(),
  /** This run failed the format significantly more often (pWorse below the look's level). */
  flagged: z.boolean(),
});
export type FormatShift = z.infer<typeof formatShiftSchema>;

/** Which items were compared, and which were not and why. */
export const pairingSchema = z.object({
  /** Items both runs hold (a record, or a place in `incomplete.missing`). */
  intersection: z.number().int(),
  paired: z.number().int(),
  excluded: z.array(
    z.object({ id: z.string(), kind: z.string().optional(), reason: z.enum(EXCLUSION_REASONS) }),
  ),
  excludedShare: z.number(),
  /** Items only this run holds (not in the baseline), and only the baseline. */
  candidateOnly: z.number().int(),
  baselineOnly: z.number().int(),
  /** Kinds only the baseline holds: not compared (outside this run's selection). */
  baselineOnlyKinds: z.array(z.string()),
  /** Kinds both runs hold of which no item could be paired. */
  missingKinds: z.array(z.string()),
  /** How this run's recorded selection differs from the baseline's, in words (why pairing is partial). */
  selectionDiffers: z.array(z.string()).optional(),
});
export type Pairing = z.infer<typeof pairingSchema>;

/** comparison.json, and `comparison` in results.json. */
export const comparisonSchema = z.object({
  verdict: z.enum(VERDICTS),
  /** One sentence: what the verdict rests on. */
  summary: z.string(),
  causes: z.array(z.enum(INCONCLUSIVE_CAUSES)),
  policy: gatePolicySchema,
  /** Which look decided, of how many, at which level (top-up: two looks). */
  look: z.object({ index: z.number().int(), of: z.number().int(), alpha: z.number() }),
  overall: rowSchema.optional(),
  kinds: z.array(kindRowSchema),
  /** The kinds pooled by group, for the report (never part of the verdict). */
  groups: z.array(groupRowSchema).optional(),
  /** Format failures on the paired items, this run against the baseline. */
  format: formatShiftSchema.optional(),
  pairing: pairingSchema.optional(),
  /** Set when a top-up ran: how many paired items were planned and added, and which. */
  topUp: z
    .object({ planned: z.number().int(), added: z.number().int(), ids: z.array(z.string()) })
    .optional(),
  /** A merged run (`merge`): how many shards were planned, and which gave no results (1-based). */
  shards: z.object({ count: z.number().int(), missing: z.array(z.number().int()) }).optional(),
  /**
   * The paired items that changed, in this run's order: `lost` were better in
   * the baseline (regressions: the report lists them, the check annotates their
   * files), `gained` better in this run.
   */
  flipped: z.object({ lost: z.array(z.string()), gained: z.array(z.string()) }).optional(),
  /** What differs between the runs without making them incomparable (tracer, environments…). */
  notes: z.array(z.string()),
  /** `baseline-unavailable`: what failed while looking the baseline up. */
  unavailable: z.string().optional(),
  /** The baseline: where it came from and which model it scored. */
  baseline: z
    .object({
      source: z.string(),
      model: z.string(),
      revision: z.string().optional(),
      commit: z.string().optional(),
    })
    .optional(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** A check-run annotation (GitHub's shape): a line of a file of the repository. */
export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  title: string;
  message: string;
}
