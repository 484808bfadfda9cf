import type { IndexRow } from '../../contracts/history.js';

/**
 * Which of a run's rows make its main line: the scores of the tracked branch as it moved. A
 * failed checkpoint that was never merged must not show as a dip of that line, so three sorts
 * of row are drawn apart (as points the line passes by, never through):
 *
 * - a row recorded on another branch than the tracked one (the branch most rows carry; pushes
 *   of the Action carry theirs);
 * - a candidate the gate rejected: a row of no branch (a CLI run, `--commit`) whose verdict is
 *   `fail` and was not accepted by the label — a push to the tracked branch that failed was
 *   merged all the same, and stays on the line;
 * - a candidate passed over: a row no other row descends from, whose parent a later row also
 *   has (a sibling recorded after it took its place).
 *
 * Pure: rows in time order in, the reason each apart row is apart out.
 */
export function apartRows(rows: readonly IndexRow[]): Map<IndexRow, string> {
  const apart = new Map<IndexRow, string>();
  const tracked = trackedBranch(rows);
  const parents = new Set(rows.flatMap((r) => (r.parent ? [r.parent] : [])));
  rows.forEach((row, i) => {
    if (row.branch && tracked && row.branch !== tracked)
      apart.set(row, `on branch ${row.branch}, not ${tracked}`);
    else if (!row.branch && row.verdict === 'fail' && !row.accepted)
      apart.set(row, 'a candidate the gate rejected');
    else if (
      row.parent &&
      !parents.has(row.commit) &&
      rows.slice(i + 1).some((later) => later.parent === row.parent && later.commit !== row.commit)
    )
      apart.set(row, 'a candidate passed over: a later run on the same parent');
  });
  return apart;
}

/** The branch most rows were recorded on (the newest such row's, on a tie); none without one. */
export function trackedBranch(rows: readonly IndexRow[]): string | undefined {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.branch) counts.set(r.branch, (counts.get(r.branch) ?? 0) + 1);
  let best: string | undefined;
  for (const r of [...rows].reverse()) {
    if (!r.branch) continue;
    if (best === undefined || counts.get(r.branch)! > counts.get(best)!) best = r.branch;
  }
  return best;
}
