/**
 * The tokens of a Python literal that are more than a character: numbers
 * (hex, octal, binary, decimal, imaginary) and string literals (prefixes,
 * triple quotes, escapes, adjacent literals concatenated).
 */
import type { Cursor } from './cursor.js';
import { DIGITS, intOf } from './numbers.js';
import { PyOpaque, type PyValue } from './values.js';

const PY_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

const RADIX_INTS = [
  /0[xX](?:_?[0-9a-fA-F])+(?![\w.])/y,
  /0[oO](?:_?[0-7])+(?![\w.])/y,
  /0[bB](?:_?[01])+(?![\w.])/y,
];
const DECIMAL = new RegExp(
  String.raw`(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?([jJ])?`,
  'y',
);
const STRING_START = /([rRuUbBfF]{0,2})('''|"""|'|")/y;

/** A number literal without its sign: an int, a float, or an imaginary (opaque). */
export function readNumber(cursor: Cursor): number | bigint | PyOpaque {
  cursor.ws();
  const t = cursor.text;
  for (const re of RADIX_INTS) {
    re.lastIndex = cursor.i;
    const m = re.exec(t);
    if (m) {
      cursor.i += m[0].length;
      return intOf(String(BigInt(m[0].replace(/_/g, ''))));
    }
  }
  DECIMAL.lastIndex = cursor.i;
  const m = DECIMAL.exec(t);
  if (!m || /\w/.test(t[cursor.i + m[0].length] ?? '')) cursor.fail();
  cursor.i += m[0].length;
  const text = m[0].replace(/_/g, '');
  if (m[1]) return new PyOpaque(text.toLowerCase());
  if (/^\d+$/.test(text)) {
    if (/^0\d/.test(text) && !/^0+$/.test(text)) cursor.fail(); // 007 is a SyntaxError
    return intOf(text);
  }
  return Number(text);
}

/** Adjacent string literals, concatenated; bytes and f-strings refused or opaque; undefined if none here. */
export function readStrings(cursor: Cursor): PyValue | undefined {
  let out: string | undefined;
  let bytes: string | undefined;
  for (;;) {
    cursor.ws();
    STRING_START.lastIndex = cursor.i;
    const found = STRING_START.exec(cursor.text);
    if (!found) break;
    const prefix = found[1]!.toLowerCase();
    if (!/^(|r|u|b|br|rb|f|fr|rf)$/.test(prefix)) cursor.fail();
    if (prefix.includes('f')) cursor.fail(); // an f-string is not a literal
    cursor.i += found[0].length;
    const body = stringBody(cursor, found[2]!, prefix.includes('r'));
    if (prefix.includes('b')) {
      if (out !== undefined) cursor.fail(); // bytes and str do not concatenate
      bytes = (bytes ?? '') + body;
    } else {
      if (bytes !== undefined) cursor.fail();
      out = (out ?? '') + body;
    }
  }
  if (bytes !== undefined) return new PyOpaque(`b${JSON.stringify(bytes)}`);
  return out;
}

/** One literal's characters up to its closing `quote` (the opening one already read). */
function stringBody(cursor: Cursor, quote: string, raw: boolean): string {
  const t = cursor.text;
  let out = '';
  for (;;) {
    if (cursor.i >= t.length) cursor.fail();
    if (t.startsWith(quote, cursor.i)) {
      cursor.i += quote.length;
      return out;
    }
    const c = t[cursor.i++]!;
    if (c === '\n' && quote.length === 1) cursor.fail();
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = t[cursor.i++];
    if (e === undefined) cursor.fail();
    out += raw ? '\\' + e : escape(cursor, e);
  }
}

/** What the escape `\e` stands for (the backslash and `e` already read). */
function escape(cursor: Cursor, e: string): string {
  const t = cursor.text;
  if (e === '\n') return '';
  if (e in PY_ESCAPES) return PY_ESCAPES[e]!;
  if (e === 'x' || e === 'u' || e === 'U') {
    const width = e === 'x' ? 2 : e === 'u' ? 4 : 8;
    const hex = t.slice(cursor.i, cursor.i + width);
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) cursor.fail();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) cursor.fail();
    cursor.i += width;
    return String.fromCodePoint(code);
  }
  if (/[0-7]/.test(e)) {
    const m = /[0-7]{0,2}/y;
    m.lastIndex = cursor.i;
    const more = m.exec(t)![0];
    cursor.i += more.length;
    return String.fromCodePoint(parseInt(e + more, 8));
  }
  if (e === 'N') cursor.fail(); // \N{name}: not supported here
  return '\\' + e; // an unknown escape stays as written (Python warns)
}
