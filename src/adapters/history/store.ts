import {
  ENTRIES_DIR,
  INDEX_PATH,
  commitShaSchema,
  historyEntrySchema,
  runNameSchema,
  type HistoryEntry,
  type IndexRow,
} from '../../contracts/history.js';
import { UsageError } from '../../errors.js';
import type { Retention } from './index-merge.js';

/**
 * Per-commit history: one entry per (run name, commit) and an index of rows.
 * Two implementations: a directory (the CLI's `--history DIR`) and a data
 * branch of the repository (the Action). Both skip what they cannot read
 * with a warning naming the file, and refuse a newer tracegate's files.
 */
export interface HistoryStore {
  /** Where the history is, for messages: `directory .tracegate/history`, `branch tracegate-data of acme/models`. */
  readonly location: string;
  /** Every readable row, older first; an absent history has none. */
  index(): Promise<IndexRow[]>;
  /** The entry of `name` at `commit` (a full sha), or undefined when absent or unreadable. */
  entry(name: string, commit: string): Promise<HistoryEntry | undefined>;
  /** Writes the entry and its index row (replacing one of the same name and commit). */
  record(entry: HistoryEntry, options?: RecordOptions): Promise<RecordOutcome>;
}

export interface RecordOptions {
  /** Older entries of the same name to drop in the same write. */
  retention?: Retention;
  /**
   * Files written beside the index in the same write, computed from the
   * merged rows (so a retried write includes a concurrent writer's row):
   * e.g. `{ 'index.html': renderDashboard(rows) }` for GitHub Pages.
   */
  files?: (rows: readonly IndexRow[]) => Record<string, string>;
  /** The clock retention counts days from (tests pin it). */
  now?: Date;
}

export interface RecordOutcome {
  /** Where the entry was written, e.g. `branch tracegate-data of acme/models: entries/tracegate/abc….json`. */
  location: string;
  /** The index after the write. */
  rows: IndexRow[];
  /** The rows (and entries) retention removed. */
  dropped: IndexRow[];
  /** Writes tried: more than 1 when another writer moved the branch first. */
  attempts: number;
  /** The data branch's new commit (branch store only). */
  commit?: string;
}

/** Where warnings go (the Action: core.warning; the CLI: stderr). */
export type Warn = (message: string) => void;

/** The entry, validated before anything is written (its name and commit become paths). */
export function checkedEntry(entry: HistoryEntry): HistoryEntry {
  const parsed = historyEntrySchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `Cannot record a history entry: ${issue?.path.join('.') || 'entry'}: ${issue?.message}. ` +
        'The run name takes letters, digits, . _ - and the commit must be a full lowercase sha.',
    );
  }
  return parsed.data;
}

/** True when `name` and `commit` can name an entry (anything else cannot be in the history). */
export function isEntryKey(name: string, commit: string): boolean {
  return runNameSchema.safeParse(name).success && commitShaSchema.safeParse(commit).success;
}

/** The extra files of a write, each path checked to stay beside the index. */
export function extraFiles(
  options: RecordOptions | undefined,
  rows: readonly IndexRow[],
): [string, string][] {
  const files = Object.entries(options?.files?.(rows) ?? {});
  for (const [path] of files) {
    const segments = path.split('/');
    const bad =
      !/^[A-Za-z0-9._/-]+$/.test(path) ||
      segments.some((s) => s === '' || s === '.' || s === '..') ||
      path === INDEX_PATH ||
      segments[0] === ENTRIES_DIR;
    if (bad)
      throw new UsageError(
        `Cannot write ${JSON.stringify(path)} into the history: extra files need a relative path ` +
          `of letters, digits, . _ - / outside ${ENTRIES_DIR}/ and other than ${INDEX_PATH}.`,
      );
  }
  return files;
}
