/**
 * Python's view of answer values, for scoring as SWE-Flux's Python scorer
 * does: `json.loads` (integers of any size, NaN and Infinity),
 * `ast.literal_eval` (quotes of both kinds, tuples, sets, True/False/None),
 * `float()` and `int()` of a string, `math.isclose` and `==`.
 *
 * Values: null, boolean, number (a float, or an int that fits one exactly),
 * bigint (an int that does not), string, arrays (lists), PyTuple, PySet,
 * PyOpaque (bytes, complex, Ellipsis: equal only to themselves) and
 * dictionaries as plain objects with own keys; a key that is not a string
 * becomes `\u0000py:<repr>`, which no JSON key can equal.
 */

export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}
export class PySet {
  constructor(readonly items: PyValue[]) {}
}
export class PyOpaque {
  constructor(readonly repr: string) {}
}
export type PyDict = { [key: string]: PyValue };
export type PyValue =
  null | boolean | number | bigint | string | PyValue[] | PyTuple | PySet | PyOpaque | PyDict;

const MAX_DEPTH = 64;

export function isDict(v: unknown): v is PyDict {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof PyTuple) &&
    !(v instanceof PySet) &&
    !(v instanceof PyOpaque)
  );
}

export function hasKey(dict: PyDict, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(dict, key);
}

function setKey(dict: PyDict, key: string, value: PyValue): void {
  // defineProperty: a key named __proto__ is a key like any other.
  Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Python's `isinstance(x, (int, float)) and not isinstance(x, bool)`. */
export function isPyNumber(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

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

const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_TEXT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`,
  'i',
);

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

function numericPair(a: unknown, b: unknown): [number | bigint, number | bigint] | undefined {
  const num = (v: unknown): number | bigint | undefined =>
    typeof v === 'boolean' ? (v ? 1 : 0) : isPyNumber(v) ? v : undefined;
  const [x, y] = [num(a), num(b)];
  return x === undefined || y === undefined ? undefined : [x, y];
}

/** Python's `a == b` for these values (True == 1 == 1.0; ints and floats compared exactly). */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const numbers = numericPair(a, b);
  if (numbers) {
    const [x, y] = numbers;
    if (typeof x === 'number' && typeof y === 'number') return x === y;
    const [ix, iy] = [integral(x), integral(y)];
    return ix !== undefined && iy !== undefined && ix === iy;
  }
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && sameItems(a, b);
  }
  if (a instanceof PyTuple || b instanceof PyTuple) {
    return a instanceof PyTuple && b instanceof PyTuple && sameItems(a.items, b.items);
  }
  if (a instanceof PySet || b instanceof PySet) {
    return (
      a instanceof PySet &&
      b instanceof PySet &&
      a.items.length === b.items.length &&
      a.items.every((x) => b.items.some((y) => pyEquals(x, y)))
    );
  }
  if (a instanceof PyOpaque || b instanceof PyOpaque) {
    return a instanceof PyOpaque && b instanceof PyOpaque && a.repr === b.repr;
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => hasKey(b, k) && pyEquals(a[k]!, b[k]!))
    );
  }
  return false;
}

function sameItems(a: PyValue[], b: PyValue[]): boolean {
  return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]!));
}

class Refused extends Error {}

/** Python's json.loads(text): undefined where it raises. */
export function jsonLoads(text: string): PyValue | undefined {
  try {
    const reader = new Reader(text, 'json');
    const value = reader.value(0);
    reader.end();
    return value;
  } catch (error) {
    if (error instanceof Refused || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Python's ast.literal_eval(text) (leading spaces and tabs stripped as it does): undefined where it raises. */
export function literalEval(text: string): PyValue | undefined {
  try {
    const reader = new Reader(text.replace(/^[ \t]+/, ''), 'python');
    const value = reader.expression();
    reader.end();
    return value;
  } catch (error) {
    if (error instanceof Refused || error instanceof RangeError) return undefined;
    throw error;
  }
}

const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
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

class Reader {
  i = 0;
  constructor(
    readonly text: string,
    readonly mode: 'json' | 'python',
  ) {}

  fail(): never {
    throw new Refused();
  }

  ws(): void {
    const t = this.text;
    for (;;) {
      while (this.i < t.length && /[ \t\n\r\f\v]/.test(t[this.i]!)) this.i++;
      if (this.mode === 'python' && t[this.i] === '\\' && t[this.i + 1] === '\n') this.i += 2;
      else if (this.mode === 'python' && t[this.i] === '#') {
        while (this.i < t.length && t[this.i] !== '\n') this.i++;
      } else return;
    }
  }

  end(): void {
    this.ws();
    if (this.i !== this.text.length) this.fail();
  }

  eat(s: string): boolean {
    this.ws();
    if (this.text.startsWith(s, this.i)) {
      this.i += s.length;
      return true;
    }
    return false;
  }

  /** json: one value. */
  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail();
    this.ws();
    const t = this.text;
    const c = t[this.i];
    if (c === '{') {
      this.i++;
      const dict: PyDict = {};
      if (this.eat('}')) return dict;
      do {
        this.ws();
        if (t[this.i] !== '"') this.fail();
        const key = this.jsonString();
        if (!this.eat(':')) this.fail();
        setKey(dict, key, this.value(depth + 1));
      } while (this.eat(','));
      if (!this.eat('}')) this.fail();
      return dict;
    }
    if (c === '[') {
      this.i++;
      const list: PyValue[] = [];
      if (this.eat(']')) return list;
      do list.push(this.value(depth + 1));
      while (this.eat(','));
      if (!this.eat(']')) this.fail();
      return list;
    }
    if (c === '"') return this.jsonString();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ] as const) {
      if (t.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const found = m.exec(t);
    if (!found) this.fail();
    this.i += found[0].length;
    return found[1] === undefined && found[2] === undefined ? intOf(found[0]) : Number(found[0]);
  }

  jsonString(): string {
    const t = this.text;
    this.i++;
    let out = '';
    for (;;) {
      const c = t[this.i++];
      if (c === undefined) this.fail();
      if (c === '"') return out;
      if (c < ' ') this.fail(); // json.loads is strict about control characters
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = t[this.i++];
      if (e === undefined) this.fail();
      if (e === 'u') {
        const hex = t.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 4;
      } else if (e in JSON_ESCAPES) out += JSON_ESCAPES[e];
      else this.fail();
    }
  }

  /** python: a top-level expression (`1, 2` is a tuple). */
  expression(): PyValue {
    const first = this.pyValue(0);
    if (!this.eat(',')) return first;
    const items = [first];
    this.ws();
    while (this.i < this.text.length) {
      items.push(this.pyValue(0));
      if (!this.eat(',')) break;
      this.ws();
    }
    return new PyTuple(items);
  }

  /** `a, b, c` up to `close` (trailing comma allowed); whether a comma was seen. */
  items(close: string, depth: number): { items: PyValue[]; comma: boolean } {
    const items: PyValue[] = [];
    let comma = false;
    while (!this.eat(close)) {
      items.push(this.pyValue(depth + 1));
      if (this.eat(',')) comma = true;
      else if (!this.eat(close)) this.fail();
      else break;
    }
    return { items, comma };
  }

  pyValue(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail();
    this.ws();
    const t = this.text;
    const c = t[this.i];
    if (c === '[') {
      this.i++;
      return this.items(']', depth).items;
    }
    if (c === '(') {
      this.i++;
      const { items, comma } = this.items(')', depth);
      if (items.length === 1 && !comma) return items[0]!;
      return new PyTuple(items);
    }
    if (c === '{') {
      this.i++;
      if (this.eat('}')) return {};
      const first = this.pyValue(depth + 1);
      if (this.eat(':')) {
        const dict: PyDict = {};
        let key: PyValue = first;
        for (;;) {
          setKey(dict, dictKey(key), this.pyValue(depth + 1));
          if (this.eat('}')) return dict;
          if (!this.eat(',')) this.fail();
          if (this.eat('}')) return dict;
          key = this.pyValue(depth + 1);
          if (!this.eat(':')) this.fail();
        }
      }
      const items = [first];
      while (this.eat(',')) {
        if (this.eat('}')) return set(items);
        items.push(this.pyValue(depth + 1));
      }
      if (!this.eat('}')) this.fail();
      return set(items);
    }
    if (c === '+' || c === '-') {
      this.i++;
      const operand = this.number();
      if (operand instanceof PyOpaque) return new PyOpaque(c + operand.repr);
      if (typeof operand === 'bigint') return c === '-' ? intOf(String(-operand)) : operand;
      return c === '-' ? -operand : operand;
    }
    if (c === "'" || c === '"' || /[rRuUbBfF]/.test(c ?? '')) {
      const s = this.strings();
      if (s !== undefined) return s;
    }
    for (const [word, v] of [
      ['True', true],
      ['False', false],
      ['None', null],
    ] as const) {
      if (t.startsWith(word, this.i) && !/\w/.test(t[this.i + word.length] ?? '')) {
        this.i += word.length;
        return v;
      }
    }
    if (t.startsWith('...', this.i)) {
      this.i += 3;
      return new PyOpaque('Ellipsis');
    }
    if (t.startsWith('set()', this.i)) {
      this.i += 5;
      return new PySet([]);
    }
    const n = this.number();
    // A complex literal written as a sum: 1+2j.
    this.ws();
    if ((t[this.i] === '+' || t[this.i] === '-') && !(n instanceof PyOpaque)) {
      const save = this.i;
      this.i++;
      try {
        const imaginary = this.number();
        if (imaginary instanceof PyOpaque)
          return new PyOpaque(`(${String(n)}${t[save]}${imaginary.repr})`);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
      }
      this.i = save;
    }
    return n;
  }

  number(): number | bigint | PyOpaque {
    this.ws();
    const t = this.text;
    const patterns: [RegExp, (s: string) => number | bigint][] = [
      [/0[xX](?:_?[0-9a-fA-F])+(?![\w.])/y, (s) => intOf(String(BigInt(s.replace(/_/g, ''))))],
      [/0[oO](?:_?[0-7])+(?![\w.])/y, (s) => intOf(String(BigInt(s.replace(/_/g, ''))))],
      [/0[bB](?:_?[01])+(?![\w.])/y, (s) => intOf(String(BigInt(s.replace(/_/g, ''))))],
    ];
    for (const [re, convert] of patterns) {
      re.lastIndex = this.i;
      const m = re.exec(t);
      if (m) {
        this.i += m[0].length;
        return convert(m[0]);
      }
    }
    const decimal = new RegExp(
      String.raw`(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?([jJ])?`,
      'y',
    );
    decimal.lastIndex = this.i;
    const m = decimal.exec(t);
    if (!m || /\w/.test(t[this.i + m[0].length] ?? '')) this.fail();
    this.i += m[0].length;
    const text = m[0].replace(/_/g, '');
    if (m[1]) return new PyOpaque(text.toLowerCase());
    if (/^\d+$/.test(text)) {
      if (/^0\d/.test(text) && !/^0+$/.test(text)) this.fail(); // 007 is a SyntaxError
      return intOf(text);
    }
    return Number(text);
  }

  /** Adjacent string literals, concatenated; bytes and f-strings refused or opaque; undefined if none here. */
  strings(): PyValue | undefined {
    let out: string | undefined;
    let bytes: string | undefined;
    for (;;) {
      this.ws();
      const m = /([rRuUbBfF]{0,2})('''|"""|'|")/y;
      m.lastIndex = this.i;
      const found = m.exec(this.text);
      if (!found) break;
      const prefix = found[1]!.toLowerCase();
      if (!/^(|r|u|b|br|rb|f|fr|rf)$/.test(prefix)) this.fail();
      if (prefix.includes('f')) this.fail(); // an f-string is not a literal
      this.i += found[0].length;
      const body = this.stringBody(found[2]!, prefix.includes('r'));
      if (prefix.includes('b')) {
        if (out !== undefined) this.fail(); // bytes and str do not concatenate
        bytes = (bytes ?? '') + body;
      } else {
        if (bytes !== undefined) this.fail();
        out = (out ?? '') + body;
      }
    }
    if (bytes !== undefined) return new PyOpaque(`b${JSON.stringify(bytes)}`);
    return out;
  }

  stringBody(quote: string, raw: boolean): string {
    const t = this.text;
    let out = '';
    for (;;) {
      if (this.i >= t.length) this.fail();
      if (t.startsWith(quote, this.i)) {
        this.i += quote.length;
        return out;
      }
      const c = t[this.i++]!;
      if (c === '\n' && quote.length === 1) this.fail();
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = t[this.i++];
      if (e === undefined) this.fail();
      if (raw) {
        out += '\\' + e;
        continue;
      }
      if (e === '\n') continue;
      if (e in PY_ESCAPES) out += PY_ESCAPES[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const width = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = t.slice(this.i, this.i + width);
        if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) this.fail();
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) this.fail();
        out += String.fromCodePoint(code);
        this.i += width;
      } else if (/[0-7]/.test(e)) {
        const m = /[0-7]{0,2}/y;
        m.lastIndex = this.i;
        const more = m.exec(t)![0];
        this.i += more.length;
        out += String.fromCodePoint(parseInt(e + more, 8));
      } else if (e === 'N')
        this.fail(); // \N{name}: not supported here
      else out += '\\' + e; // an unknown escape stays as written (Python warns)
    }
  }
}

function set(items: PyValue[]): PySet {
  const unique: PyValue[] = [];
  for (const item of items) {
    if (!hashable(item)) throw new Refused();
    if (!unique.some((u) => pyEquals(u, item))) unique.push(item);
  }
  return new PySet(unique);
}

function hashable(v: PyValue): boolean {
  if (Array.isArray(v) || v instanceof PySet || isDict(v)) return false;
  if (v instanceof PyTuple) return v.items.every(hashable);
  return true;
}

/** A dict key as an own-property name: strings as they are, other hashables tagged. */
function dictKey(key: PyValue): string {
  if (typeof key === 'string') return key;
  if (!hashable(key)) throw new Refused();
  return `\u0000py:${pyRepr(key)}`;
}

function pyRepr(v: PyValue): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof PyOpaque) return v.repr;
  if (v instanceof PyTuple) return `(${v.items.map(pyRepr).join(', ')})`;
  return '?';
}
