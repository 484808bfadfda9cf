/** Python's numbers: int() and float() of a str, float() of an int, math.isclose, str.strip. */

/** Digits as a Python literal spells them (ASCII only, unlike int() of a str), single underscores between them allowed. */
export const DIGITS = String.raw`\d(?:_?\d)*`;

/**
 * The zero of every run of ten decimal digits (Unicode category Nd), which
 * int() and float() read as 0-9. Python's Unicode (14.0.0 in 3.11), not this
 * engine's, so a digit added to Unicode since is refused as Python refuses it.
 * Printed by `python3 scripts/python-number-table.py --digit-zeros`.
 */
const DIGIT_ZEROS = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6,
  0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50,
  0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0,
  0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730,
  0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2,
  0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];
const DIGIT_VALUES: ReadonlyMap<number, number> = new Map(
  DIGIT_ZEROS.flatMap((zero) => Array.from({ length: 10 }, (_, d) => [zero + d, d] as const)),
);

/** What str.isspace() calls whitespace: what str.strip() removes. */
// eslint-disable-next-line no-control-regex -- Python's whitespace includes the separators \x1c-\x1f
const PY_SPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
/**
 * What int() and float() strip: they turn non-ASCII whitespace into a space,
 * then strip C's ASCII whitespace, which leaves out the separators \x1c-\x1f.
 */
const C_SPACE = /[\t-\r ]/;

/** CPython's default sys.get_int_max_str_digits(): int() of a longer digit string raises ValueError. */
const INT_MAX_STR_DIGITS = 4300;

const INT_TEXT = /^[+-]?[0-9]+$/;
// No nested or adjacent unbounded repeats, so a long string that fails late fails in linear time.
const FLOAT_TEXT = /^[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?|inf|infinity|nan)$/i;

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

/** Python's int(s) of a str, base 10; undefined where Python raises ValueError (the digit limit included). */
export function pyInt(s: string): number | bigint | undefined {
  const text = numberText(s);
  if (text === undefined || !INT_TEXT.test(text)) return undefined;
  const digits = text.replace(/^[+-]/, '');
  if (digits.length > INT_MAX_STR_DIGITS) return undefined;
  return intOf(text.startsWith('-') ? `-${digits}` : digits);
}

/** Python's float(s) of a str; undefined where Python raises ValueError. */
export function pyFloat(s: string): number | undefined {
  const text = numberText(s);
  if (text === undefined || !FLOAT_TEXT.test(text)) return undefined;
  const word = text.replace(/^[+-]/, '').toLowerCase();
  if (word === 'nan') return NaN;
  if (word.startsWith('inf')) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

/** Whether Python's `re.fullmatch(r"[+-]?\d+", s)` matches: its \d is any decimal digit, not only 0-9. */
export function isSignedDigits(s: string): boolean {
  const digits = s.replace(/^[+-]/, '');
  return digits !== '' && [...digits].every((ch) => DIGIT_VALUES.has(ch.codePointAt(0)!));
}

/** Python's str.strip() with no argument. */
export function pyStrip(s: string): string {
  return strip(s, PY_SPACE);
}

/**
 * The text int() and float() parse, as CPython makes it: decimal digits of
 * any script as ASCII digits, whitespace stripped, underscores checked and
 * dropped; undefined where any other character makes Python raise ValueError.
 */
function numberText(s: string): string | undefined {
  let ascii = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) ascii += ch;
    else if (DIGIT_VALUES.has(code)) ascii += DIGIT_VALUES.get(code);
    else if (PY_SPACE.test(ch)) ascii += ' ';
    else return undefined;
  }
  const text = strip(ascii, C_SPACE);
  // An underscore only between two digits, in any part of the number.
  if (/(?:^|[^0-9])_|_(?![0-9])/.test(text)) return undefined;
  return text.replace(/_/g, '');
}

/** A loop, not a regex: a regex anchored at the end goes quadratic on a long run of spaces. */
function strip(s: string, space: RegExp): string {
  let start = 0;
  let end = s.length;
  while (start < end && space.test(s[start]!)) start++;
  while (end > start && space.test(s[end - 1]!)) end--;
  return s.slice(start, end);
}
