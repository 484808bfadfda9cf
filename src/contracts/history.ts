import { z } from 'zod';
import { resultsSchema } from './results.js';

/** Version of the history format; a newer writer's data is refused with a clear error. */
export const HISTORY_SCHEMA = 'tracegate/history@1';

/** A run name: one history series (and one sticky comment) per name. */
export const runNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, . _ - (at most 64)');

/**
 * A commit sha as history stores it: lowercase hex, 7–64 characters. Paths
 * are built from it (and from the run name), so nothing else is accepted.
 */
export const commitShaSchema = z.string().regex(/^[0-9a-f]{7,64}$/, 'a lowercase hex commit sha');

/** What names a recorded run, in an entry and in its index row alike. */
const runFields = {
  name: runNameSchema,
  commit: commitShaSchema,
  /** The commit's first parent, when known (push events, the CLI's --parent). */
  parent: z.string().optional(),
  /** The branch the commit was recorded on, when known. */
  branch: z.string().optional(),
  recordedAt: z.string(),
  /** The gate's verdict for this run. */
  verdict: z.string().optional(),
};

/** One history entry: a run of `name` at `commit`, with its per-item records. */
export const historyEntrySchema = z.object({
  schema: z.literal(HISTORY_SCHEMA),
  ...runFields,
  /** Whether a label accepted a failure. */
  accepted: z.object({ label: z.string(), note: z.string().optional() }).optional(),
  results: resultsSchema,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** One kind's counts in an index row. */
/** A share of items (accuracy): a number from 0 to 1. */
const shareSchema = z.number().min(0).max(1);
/** A count of items: a whole number from 0. */
const countSchema = z.number().int().nonnegative();

export const kindCountSchema = z
  .object({ total: countSchema, correct: countSchema })
  .refine((c) => c.correct <= c.total, 'correct is more than total');

/** Flipped items an index row lists at most (regressed first); the entry holds them all. */
export const FLIPPED_IN_INDEX = 20;

/** A flipped item as the index keeps it: the id and, when the entry's records say, its kind. */
const flippedItemSchema = z.object({ id: z.string(), kind: z.string().optional() });

/** The comparison's flipped items, capped at FLIPPED_IN_INDEX between the two lists. */
export const flippedRowSchema = z.object({
  /** Right in the baseline, wrong now (regressed). */
  lost: z.array(flippedItemSchema),
  /** Wrong in the baseline, right now (fixed). */
  gained: z.array(flippedItemSchema),
  /** How many flipped each way in all (the lists above may be shorter). */
  lostTotal: countSchema,
  gainedTotal: countSchema,
  /** The baseline's commit, when the baseline was one. */
  baseline: z.string().optional(),
});
export type FlippedRow = z.infer<typeof flippedRowSchema>;

/**
 * One row of the index: enough to draw a trend and find an entry without
 * reading it. Values are checked where they enter (shares in [0, 1], counts
 * whole and non-negative, `correct` ≤ `total`): a row out of range is
 * skipped with a warning, never drawn or averaged.
 */
export const indexRowSchema = z
  .object({
    ...runFields,
    accepted: z.boolean().optional(),
    accuracy: shareSchema,
    total: countSchema,
    byKind: z.record(z.string(), shareSchema),
    /** Items right overall (with `total`, the interval). Absent from rows written before it was kept. */
    correct: countSchema.optional(),
    /** Per kind: items scored and right (the item count and interval the dashboard draws). */
    byKindCounts: z.record(z.string(), kindCountSchema).optional(),
    /** The items that flipped against the run's baseline, capped (the dashboard lists them). */
    flipped: flippedRowSchema.optional(),
    model: z.string(),
    revision: z.string().optional(),
    /** The entry's prompt version and scorer: a baseline of another one is skipped unread. */
    promptVersion: z.string().optional(),
    scorer: z.string().optional(),
  })
  .refine((r) => r.correct === undefined || r.correct <= r.total, 'correct is more than total');
export type IndexRow = z.infer<typeof indexRowSchema>;

export const historyIndexSchema = z.object({
  schema: z.literal(HISTORY_SCHEMA),
  rows: z.array(indexRowSchema),
});
export type HistoryIndex = z.infer<typeof historyIndexSchema>;

/** The index row of an entry. */
export function indexRow(entry: HistoryEntry): IndexRow {
  const { summary, model } = entry.results;
  const flipped = flippedOf(entry.results);
  return {
    name: entry.name,
    commit: entry.commit,
    ...(entry.parent ? { parent: entry.parent } : {}),
    ...(entry.branch ? { branch: entry.branch } : {}),
    recordedAt: entry.recordedAt,
    ...(entry.verdict ? { verdict: entry.verdict } : {}),
    ...(entry.accepted ? { accepted: true } : {}),
    accuracy: summary.accuracy,
    total: summary.total,
    byKind: Object.fromEntries(Object.entries(summary.byKind).map(([k, s]) => [k, s.accuracy])),
    correct: summary.correct,
    byKindCounts: Object.fromEntries(
      Object.entries(summary.byKind).map(([k, s]) => [k, { total: s.total, correct: s.correct }]),
    ),
    ...(flipped ? { flipped } : {}),
    model: model.name,
    ...(model.revision ? { revision: model.revision } : {}),
    promptVersion: entry.results.promptVersion,
    ...(scorerOf(entry.results) ? { scorer: scorerOf(entry.results) } : {}),
  };
}

/** The comparison's flipped items with their kinds, regressed first, at most FLIPPED_IN_INDEX. */
function flippedOf(results: HistoryEntry['results']): FlippedRow | undefined {
  const flipped = results.comparison?.flipped;
  if (!flipped) return undefined;
  const kinds = new Map(results.instances.map((r) => [r.id, r.kind] as const));
  const item = (id: string) => {
    const kind = kinds.get(id);
    return kind ? { id, kind } : { id };
  };
  const lost = flipped.lost.slice(0, FLIPPED_IN_INDEX);
  const gained = flipped.gained.slice(0, FLIPPED_IN_INDEX - lost.length);
  const baseline = results.comparison?.baseline?.commit;
  return {
    lost: lost.map(item),
    gained: gained.map(item),
    lostTotal: flipped.lost.length,
    gainedTotal: flipped.gained.length,
    ...(baseline ? { baseline } : {}),
  };
}

/** The scorer (`name@version`) a run was scored with, when its results say (read defensively). */
export function scorerOf(results: unknown): string | undefined {
  const scorer = (results as { provenance?: { scorer?: unknown } }).provenance?.scorer;
  return typeof scorer === 'string' ? scorer : undefined;
}

/** Where an entry lives inside the history (a directory or the data branch's tree). */
export const ENTRIES_DIR = 'entries';

/** A history entry file larger than this is skipped with a warning, never read (one run's records). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** An index larger than this is refused (a row is a few hundred bytes: set a retention). */
export const MAX_INDEX_BYTES = 32 * 1024 * 1024;
export const entryPath = (name: string, commit: string): string =>
  `${ENTRIES_DIR}/${name}/${commit}.json`;
export const INDEX_PATH = 'index.json';
