import type { IndexRow } from '../../contracts/history.js';
import { wilson } from '../score/aggregate.js';

/**
 * One accuracy of an index row with what the dashboard says beside it: the
 * items scored and the 95% Wilson interval — the same interval results.json
 * gives (`summary.ci95`), computed from the row's counts. Rows written before
 * the index kept counts have neither.
 */
export interface Measure {
  value: number;
  /** Items scored, and how many were right. */
  n?: number;
  correct?: number;
  interval?: [number, number];
}

export const short = (sha: string): string => sha.slice(0, 7);
export const percent = (v: number): string => `${(v * 100).toFixed(1)}%`;
const points = (v: number): string => (v * 100).toFixed(1);

function measure(value: number, counts?: { total: number; correct: number }): Measure {
  if (!counts) return { value };
  return {
    value,
    n: counts.total,
    correct: counts.correct,
    ...(counts.total > 0 ? { interval: wilson(counts.correct, counts.total) } : {}),
  };
}

/** The row's overall accuracy (its n is always known; its interval when `correct` is kept). */
export function overallMeasure(row: IndexRow): Measure {
  return row.correct === undefined
    ? { value: row.accuracy, n: row.total }
    : measure(row.accuracy, { total: row.total, correct: row.correct });
}

/** A kind's accuracy at the row, or undefined where the kind was not run. */
export function kindMeasure(row: IndexRow, kind: string): Measure | undefined {
  const value = row.byKind[kind];
  return value === undefined ? undefined : measure(value, row.byKindCounts?.[kind]);
}

/** `[48.1–75.0%]`, or '' without an interval. */
export function intervalText(m: Measure): string {
  return m.interval ? `[${points(m.interval[0])}–${points(m.interval[1])}%]` : '';
}

/** `62.5% [48.1–75.0%] n=40 (25 right)`: the measure in one line (tooltips). */
export function measureText(m: Measure): string {
  return [
    percent(m.value),
    intervalText(m),
    m.n === undefined ? '' : `n=${m.n}${m.correct === undefined ? '' : ` (${m.correct} right)`}`,
  ]
    .filter(Boolean)
    .join(' ');
}
