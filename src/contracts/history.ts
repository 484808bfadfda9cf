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

/** One history entry: a run of `name` at `commit`, with its per-item records. */
export const historyEntrySchema = z.object({
  schema: z.literal(HISTORY_SCHEMA),
  name: runNameSchema,
  commit: commitShaSchema,
  /** The commit's first parent, when known (push events, the CLI's --parent). */
  parent: z.string().optional(),
  /** The branch the commit was recorded on, when known. */
  branch: z.string().optional(),
  recordedAt: z.string(),
  /** The gate's verdict for this run, and whether a label accepted a failure. */
  verdict: z.string().optional(),
  accepted: z.object({ label: z.string(), note: z.string().optional() }).optional(),
  results: resultsSchema,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** One row of the index: enough to draw a trend and find an entry without reading it. */
export const indexRowSchema = z.object({
  name: runNameSchema,
  commit: commitShaSchema,
  parent: z.string().optional(),
  branch: z.string().optional(),
  recordedAt: z.string(),
  verdict: z.string().optional(),
  accepted: z.boolean().optional(),
  accuracy: z.number(),
  total: z.number().int(),
  byKind: z.record(z.string(), z.number()),
  model: z.string(),
  revision: z.string().optional(),
  /** The entry's prompt version and scorer: a baseline of another one is skipped unread. */
  promptVersion: z.string().optional(),
  scorer: z.string().optional(),
});
export type IndexRow = z.infer<typeof indexRowSchema>;

export const historyIndexSchema = z.object({
  schema: z.literal(HISTORY_SCHEMA),
  rows: z.array(indexRowSchema),
});
export type HistoryIndex = z.infer<typeof historyIndexSchema>;

/** The index row of an entry. */
export function indexRow(entry: HistoryEntry): IndexRow {
  const { summary, model } = entry.results;
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
    model: model.name,
    ...(model.revision ? { revision: model.revision } : {}),
    promptVersion: entry.results.promptVersion,
    ...(scorerOf(entry.results) ? { scorer: scorerOf(entry.results) } : {}),
  };
}

/** The scorer (`name@version`) a run was scored with, when its results say (read defensively). */
export function scorerOf(results: unknown): string | undefined {
  const scorer = (results as { provenance?: { scorer?: unknown } }).provenance?.scorer;
  return typeof scorer === 'string' ? scorer : undefined;
}

/** Where an entry lives inside the history (a directory or the data branch's tree). */
export const ENTRIES_DIR = 'entries';
export const entryPath = (name: string, commit: string): string =>
  `${ENTRIES_DIR}/${name}/${commit}.json`;
export const INDEX_PATH = 'index.json';
