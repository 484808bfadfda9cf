// Why two runs pair only in part: how their recorded selections differ.
import type { SelectionRecord } from '../../contracts/results.js';

/**
 * Why this run's selection differs from the baseline's, in words (empty:
 * the same, or one of them recorded none): the verdict line's reason when
 * only part of the baseline is paired.
 */
export function selectionDifferences(
  mine: SelectionRecord | undefined,
  theirs: SelectionRecord | undefined,
): string[] {
  if (!mine || !theirs) return [];
  const differences: string[] = [];
  const show = (v: unknown) =>
    v === undefined ? 'unset' : Array.isArray(v) ? v.join(',') : String(v);
  for (const key of ['categories', 'ids', 'sample', 'seed'] as const)
    if (show(mine[key]) !== show(theirs[key]))
      differences.push(`${key} ${show(mine[key])} here, ${show(theirs[key])} in the baseline`);
  const [a, b] = [mine.variants?.epoch, theirs.variants?.epoch];
  if (a !== b) differences.push(`variant epoch ${show(a)} here, ${show(b)} in the baseline`);
  return differences;
}
