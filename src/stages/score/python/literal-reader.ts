/**
 * Python's ast.literal_eval: quotes of both kinds, tuples (bare at the top
 * level too), lists, sets, dicts with any hashable keys, True/False/None,
 * signed numbers; bytes, complex and Ellipsis as opaque values.
 */
import { Cursor, MAX_DEPTH, readOrUndefined, Refused } from './cursor.js';
import { hashable, pyEquals } from './equality.js';
import { readNumber, readStrings } from './literal-tokens.js';
import { intOf } from './numbers.js';
import { PyOpaque, PySet, PyTuple, setKey, type PyDict, type PyValue } from './values.js';

/** Python's ast.literal_eval(text) (leading spaces and tabs stripped as it does): undefined where it raises. */
export function literalEval(text: string): PyValue | undefined {
  return readOrUndefined(() => {
    const reader = new LiteralReader(text.replace(/^[ \t]+/, ''));
    const value = reader.expression();
    reader.end();
    return value;
  });
}

const PY_WORDS: readonly (readonly [string, PyValue])[] = [
  ['True', true],
  ['False', false],
  ['None', null],
];

class LiteralReader extends Cursor {
  constructor(text: string) {
    super(text, 'python');
  }

  /** A top-level expression (`1, 2` is a tuple). */
  expression(): PyValue {
    const first = this.value(0);
    if (!this.eat(',')) return first;
    const items = [first];
    this.ws();
    while (this.i < this.text.length) {
      items.push(this.value(0));
      if (!this.eat(',')) break;
      this.ws();
    }
    return new PyTuple(items);
  }

  private value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail();
    this.ws();
    const c = this.text[this.i];
    if (c === '[') {
      this.i++;
      return this.items(']', depth).items;
    }
    if (c === '(') return this.parenthesised(depth);
    if (c === '{') return this.braced(depth);
    if (c === '+' || c === '-') return this.signed(c);
    if (c === "'" || c === '"' || /[rRuUbBfF]/.test(c ?? '')) {
      const s = readStrings(this);
      if (s !== undefined) return s;
    }
    const word = this.word(PY_WORDS, true);
    if (word) return word.value;
    if (this.eat('...')) return new PyOpaque('Ellipsis');
    if (this.eat('set()')) return new PySet([]);
    return this.numberOrComplex();
  }

  /** `a, b, c` up to `close` (trailing comma allowed); whether a comma was seen. */
  private items(close: string, depth: number): { items: PyValue[]; comma: boolean } {
    const items: PyValue[] = [];
    let comma = false;
    while (!this.eat(close)) {
      items.push(this.value(depth + 1));
      if (this.eat(',')) comma = true;
      else if (!this.eat(close)) this.fail();
      else break;
    }
    return { items, comma };
  }

  /** `(x)` is x; `()`, `(x,)` and `(x, y)` are tuples. */
  private parenthesised(depth: number): PyValue {
    this.i++;
    const { items, comma } = this.items(')', depth);
    if (items.length === 1 && !comma) return items[0]!;
    return new PyTuple(items);
  }

  /** `{}` and `{k: v, …}` are dicts, `{a, …}` a set. */
  private braced(depth: number): PyValue {
    this.i++;
    if (this.eat('}')) return {};
    const first = this.value(depth + 1);
    return this.eat(':') ? this.dictFrom(first, depth) : this.setFrom(first, depth);
  }

  /** The rest of a dict whose first key (and its colon) was read. */
  private dictFrom(first: PyValue, depth: number): PyDict {
    const dict: PyDict = {};
    let key: PyValue = first;
    for (;;) {
      setKey(dict, dictKey(key), this.value(depth + 1));
      if (this.eat('}')) return dict;
      if (!this.eat(',')) this.fail();
      if (this.eat('}')) return dict;
      key = this.value(depth + 1);
      if (!this.eat(':')) this.fail();
    }
  }

  /** The rest of a set whose first member was read. */
  private setFrom(first: PyValue, depth: number): PySet {
    const items = [first];
    while (this.eat(',')) {
      if (this.eat('}')) return set(items);
      items.push(this.value(depth + 1));
    }
    if (!this.eat('}')) this.fail();
    return set(items);
  }

  /** A unary `+` or `-` before a number. */
  private signed(sign: '+' | '-'): number | bigint | PyOpaque {
    this.i++;
    const operand = readNumber(this);
    if (operand instanceof PyOpaque) return new PyOpaque(sign + operand.repr);
    if (typeof operand === 'bigint') return sign === '-' ? intOf(String(-operand)) : operand;
    return sign === '-' ? -operand : operand;
  }

  /** A number, or a complex literal written as a sum: 1+2j. */
  private numberOrComplex(): number | bigint | PyOpaque {
    const t = this.text;
    const n = readNumber(this);
    this.ws();
    if ((t[this.i] === '+' || t[this.i] === '-') && !(n instanceof PyOpaque)) {
      const save = this.i;
      this.i++;
      try {
        const imaginary = readNumber(this);
        if (imaginary instanceof PyOpaque)
          return new PyOpaque(`(${String(n)}${t[save]}${imaginary.repr})`);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
      }
      this.i = save;
    }
    return n;
  }
}

/** A set of the distinct members; refused when one is unhashable. */
function set(items: PyValue[]): PySet {
  const unique: PyValue[] = [];
  for (const item of items) {
    if (!hashable(item)) throw new Refused();
    if (!unique.some((u) => pyEquals(u, item))) unique.push(item);
  }
  return new PySet(unique);
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
