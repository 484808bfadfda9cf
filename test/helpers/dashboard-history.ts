import type { FlippedRow, IndexRow } from '../../src/contracts/history.js';
import { HOSTILE_KIND, dashboardRows } from './history-rows.js';
import { sha } from './history.js';

/** A flipped item's id that is markup: it must stay text in the list of a commit's flips. */
export const HOSTILE_ID = `S2-"><img src=x onerror=alert("flip")><details open>`;

/** Items scored per kind at commit i of `tracegate`. */
const ITEMS: Record<string, (i: number) => number> = {
  S1_IntraProceduralCFG: (i) => 12 + i,
  S2_Loops: () => 10,
  S5_Exceptions: () => 8,
  [HOSTILE_KIND]: () => 4,
};

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
const ids = (kind: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, k) => ({ id: `${kind.slice(0, 2)}-${from + k}`, kind }));

/**
 * What each commit of `tracegate` flipped against its parent: the failing
 * commit 9 regressed three items (one with a hostile id, one of the hostile
 * kind's) and fixed one; the accepted failure at 3 regressed more than the
 * index lists (22, capped at 20); 5 flipped nothing; 0 and 6 had no baseline
 * and 1 is an older row that kept no flips.
 */
function flippedAt(i: number): FlippedRow | undefined {
  const baseline = { baseline: sha(`main-${i - 1}`) };
  if (i <= 1) return undefined;
  if (i === 3)
    return {
      lost: ids('S1_IntraProceduralCFG', 20),
      gained: [],
      lostTotal: 22,
      gainedTotal: 2,
      ...baseline,
    };
  if (i === 5) return { lost: [], gained: [], lostTotal: 0, gainedTotal: 0, ...baseline };
  if (i === 9)
    return {
      lost: [
        { id: 'S1-3', kind: 'S1_IntraProceduralCFG' },
        { id: HOSTILE_ID, kind: 'S2_Loops' },
        { id: 'bogus-1', kind: HOSTILE_KIND },
      ],
      gained: [{ id: 'S5-2', kind: 'S5_Exceptions' }, { id: 'gone-7' }],
      lostTotal: 3,
      gainedTotal: 2,
      ...baseline,
    };
  return {
    lost: [],
    gained: ids('S1_IntraProceduralCFG', 1, i),
    lostTotal: 0,
    gainedTotal: 1,
    ...baseline,
  };
}

/**
 * The dashboard's reviewed history: the rows of `dashboardRows()` (12 commits
 * of `tracegate` with a failure at 9 and an accepted one at 3, 3 of `nightly`,
 * hostile strings) with what the index keeps today from commit 2 of
 * `tracegate` on — items and right answers per kind (so intervals and item
 * counts) and the flipped items. Commits 0–1 and `nightly` are rows of an
 * older index: they must still render, without bands or counts.
 */
export function dashboardHistory(): IndexRow[] {
  return dashboardRows().map((row, i) => {
    if (row.name !== 'tracegate' || i < 2) return row;
    const byKindCounts = Object.fromEntries(
      Object.entries(row.byKind).map(([kind, accuracy]) => {
        const total = ITEMS[kind]!(i);
        return [kind, { total, correct: Math.round(accuracy * total) }];
      }),
    );
    const counts = Object.values(byKindCounts);
    const total = counts.reduce((a, c) => a + c.total, 0);
    const correct = counts.reduce((a, c) => a + c.correct, 0);
    const flipped = row.verdict === 'no-baseline' ? undefined : flippedAt(i);
    return {
      ...row,
      accuracy: round4(correct / total),
      total,
      correct,
      byKind: Object.fromEntries(
        Object.entries(byKindCounts).map(([kind, c]) => [kind, round4(c.correct / c.total)]),
      ),
      byKindCounts,
      ...(flipped ? { flipped } : {}),
    };
  });
}
