import type { IndexRow } from '../../contracts/history.js';

/**
 * The index as a pure value: merging a run's row in, retention, look-ups.
 * Every writer (a directory, the data branch after a lost race) goes
 * through `mergeRow`, so a re-read index and a retried write agree.
 */

/** Older first; rows recorded at the same instant keep their order (the sort is stable). */
function byRecordedAt(a: IndexRow, b: IndexRow): number {
  const ta = Date.parse(a.recordedAt);
  const tb = Date.parse(b.recordedAt);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return a.recordedAt.localeCompare(b.recordedAt);
  return ta - tb;
}

/** The rows ordered by recordedAt, older first (how every index is kept and read). */
export function sortRows(rows: readonly IndexRow[]): IndexRow[] {
  return [...rows].sort(byRecordedAt);
}

/** The index with `row` in it: a row of the same (name, commit) is replaced; ordered by recordedAt. */
export function mergeRow(rows: readonly IndexRow[], row: IndexRow): IndexRow[] {
  return [...rows.filter((r) => r.name !== row.name || r.commit !== row.commit), row].sort(
    byRecordedAt,
  );
}

/** How much history to keep per run name; both limits apply when both are set. */
export interface Retention {
  /** Keep at most this many entries per name (the newest). */
  entries?: number;
  /** Drop entries recorded more than this many days before `now`. */
  days?: number;
}

/**
 * Applies retention to the rows of `name`: returns the rows kept (all names)
 * and the rows to delete. `keep` (the row just recorded) is never dropped.
 */
export function applyRetention(
  rows: readonly IndexRow[],
  name: string,
  retention: Retention | undefined,
  keep: { name: string; commit: string },
  now: Date = new Date(),
): { kept: IndexRow[]; dropped: IndexRow[] } {
  const limit = retention?.entries;
  const days = retention?.days;
  if (limit === undefined && days === undefined) return { kept: [...rows], dropped: [] };
  const cutoff = days === undefined ? -Infinity : now.getTime() - days * 86_400_000;
  const ofName = rows.filter((r) => r.name === name);
  const newestFirst = [...ofName].reverse();
  const drop = new Set<IndexRow>();
  let kept = 0;
  for (const row of newestFirst) {
    const protectedRow = row.name === keep.name && row.commit === keep.commit;
    const old = Date.parse(row.recordedAt) < cutoff;
    const over = limit !== undefined && kept >= Math.max(limit, 1);
    if (!protectedRow && (old || over)) drop.add(row);
    else kept++;
  }
  return {
    kept: rows.filter((r) => !drop.has(r)),
    dropped: rows.filter((r) => drop.has(r)),
  };
}

/** The rows of one run name by commit (a commit recorded twice keeps its last row). */
export function rowsByCommit(rows: readonly IndexRow[], name: string): Map<string, IndexRow> {
  const map = new Map<string, IndexRow>();
  for (const row of rows) if (row.name === name) map.set(row.commit, row);
  return map;
}

/** The newest row of `name` recorded on `branch`, if any. */
export function latestOnBranch(
  rows: readonly IndexRow[],
  name: string,
  branch: string,
  accept: (row: IndexRow) => boolean = () => true,
): IndexRow | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.name === name && row.branch === branch && accept(row)) return row;
  }
  return undefined;
}

/**
 * The rows of `name` whose commit starts with `sha` (an explicit, maybe
 * abbreviated, sha): one row, none, or several when the prefix is ambiguous.
 */
export function rowsMatching(rows: readonly IndexRow[], name: string, sha: string): IndexRow[] {
  const prefix = sha.toLowerCase();
  const found = new Map<string, IndexRow>();
  for (const row of rows)
    if (row.name === name && row.commit.startsWith(prefix)) found.set(row.commit, row);
  return [...found.values()];
}
