/** Python's numbers: ints and floats from text, float() of an int, math.isclose, str.strip. */

/** Decimal digits with Python's optional single underscores between them. */
export const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_TEXT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`,
  'i',
);

/** An int (bigint, or a number that is integral), as Python would hold it after `json.loads` of an integer. */
export function integral(v: number | bigint): bigint | undefined {
  if (typeof v === 'bigint') return v;
  return Number.isInteger(v) ? BigInt(v) : undefined;
}

/** An int from its digits: a number when it is exactly representable, else a bigint. */
export function intOf(digits: string): number | bigint {
  const big = BigInt(digits);
  const n = Number(big);
  return Number.isSafeInteger(n) ? n : big;
}

/** Python's float(x) of a number; undefined where Python raises OverflowError. */
export function toFloat(v: number | bigint): number | undefined {
  const f = Number(v);
  return typeof v === 'bigint' && !Number.isFinite(f) ? undefined : f;
}

/** math.isclose(a, b, rel_tol=rel, abs_tol=abs) on two floats. */
export function isClose(a: number, b: number, rel: number, abs: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const diff = Math.abs(b - a);
  return diff <= Math.abs(rel * b) || diff <= Math.abs(rel * a) || diff <= abs;
}

/** Python's float(s) of a string (whitespace around it allowed); undefined where Python raises ValueError. */
export function pyFloat(s: string): number | undefined {
  const t = pyStrip(s);
  if (!FLOAT_TEXT.test(t)) return undefined;
  const lower = t.toLowerCase().replace(/_/g, '');
  const sign = lower.startsWith('-') ? -1 : 1;
  const body = lower.replace(/^[+-]/, '');
  if (body.startsWith('inf')) return sign * Infinity;
  if (body === 'nan') return NaN;
  return Number(lower);
}

/** Python's str.strip() with no argument (whitespace as str.isspace() knows it). */
export function pyStrip(s: string): string {
  // eslint-disable-next-line no-control-regex -- Python's whitespace includes the separators \x1c-\x1f
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, '');
}
