/** The known name closest to a mistyped one, if it is close (a typo, not another word). */
export function closest(name: string, names: readonly string[]): string | undefined {
  return nearest(name, names)[0];
}

/**
 * Every known name at the least distance from `name` (case-insensitive edits), when that
 * distance is a typo's (at most a third of the name, at least one edit); none otherwise.
 */
export function nearest(name: string, names: readonly string[]): string[] {
  const scored = names.map((candidate) => ({
    candidate,
    d: distance(name.toLowerCase(), candidate.toLowerCase()),
  }));
  const best = Math.min(...scored.map((s) => s.d));
  if (!(best <= Math.max(1, Math.floor(name.length / 3)))) return [];
  return scored.filter((s) => s.d === best).map((s) => s.candidate);
}

/** Edits (insert, delete, replace) from `a` to `b`. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = here;
    }
  }
  return row[b.length]!;
}
