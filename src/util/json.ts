/** Deepest nesting any stored or replied value of tracegate has (answer templates, oracles, records). */
export const MAX_JSON_DEPTH = 64;

/** A results file's or a history entry's records: a reply's parsed value (≤ 64) inside its record. */
export const RECORD_DEPTH = MAX_JSON_DEPTH * 2;

/**
 * Nesting depth of a parsed value, walked without recursion (a value nested
 * 100,000 deep must not overflow the stack of whatever reads it next:
 * JSON.parse takes it, JSON.stringify and every recursive walk do not).
 * Stops counting once past `limit`.
 */
export function depthOf(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > deepest) deepest = d;
    if (deepest > limit) return deepest;
    if (v && typeof v === 'object')
      for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * JSON.parse for text read back from disk (a restored cache, a history, a
 * results file): a value nested deeper than `limit` is refused as a parse
 * error, so its reader treats it as the corrupt entry it is.
 */
export function parseStoredJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  const value = JSON.parse(text) as unknown;
  if (depthOf(value, limit) > limit) throw new SyntaxError(`nested deeper than ${limit} levels`);
  return value;
}
