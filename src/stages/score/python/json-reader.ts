/** Python's json.loads: integers of any size, NaN and ±Infinity, strict strings. */
import { Cursor, MAX_DEPTH, readOrUndefined } from './cursor.js';
import { intOf } from './numbers.js';
import { setKey, type PyDict, type PyValue } from './values.js';

/** Python's json.loads(text): undefined where it raises. */
export function jsonLoads(text: string): PyValue | undefined {
  return readOrUndefined(() => {
    const reader = new JsonReader(text);
    const value = reader.value(0);
    reader.end();
    return value;
  });
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

const JSON_WORDS: readonly (readonly [string, PyValue])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
];

class JsonReader extends Cursor {
  constructor(text: string) {
    super(text, 'json');
  }

  /** One value. */
  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail();
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    const word = this.word(JSON_WORDS, false);
    if (word) return word.value;
    return this.number();
  }

  private object(depth: number): PyDict {
    this.i++;
    const dict: PyDict = {};
    if (this.eat('}')) return dict;
    do {
      this.ws();
      if (this.text[this.i] !== '"') this.fail();
      const key = this.string();
      if (!this.eat(':')) this.fail();
      setKey(dict, key, this.value(depth + 1));
    } while (this.eat(','));
    if (!this.eat('}')) this.fail();
    return dict;
  }

  private array(depth: number): PyValue[] {
    this.i++;
    const list: PyValue[] = [];
    if (this.eat(']')) return list;
    do list.push(this.value(depth + 1));
    while (this.eat(','));
    if (!this.eat(']')) this.fail();
    return list;
  }

  private number(): number | bigint {
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const found = m.exec(this.text);
    if (!found) this.fail();
    this.i += found[0].length;
    return found[1] === undefined && found[2] === undefined ? intOf(found[0]) : Number(found[0]);
  }

  private string(): string {
    const t = this.text;
    this.i++;
    let out = '';
    for (;;) {
      const c = t[this.i++];
      if (c === undefined) this.fail();
      if (c === '"') return out;
      if (c < ' ') this.fail(); // json.loads is strict about control characters
      out += c === '\\' ? this.escape() : c;
    }
  }

  /** The character a backslash escape stands for (the backslash already read). */
  private escape(): string {
    const t = this.text;
    const e = t[this.i++];
    if (e === undefined) this.fail();
    if (e === 'u') {
      const hex = t.slice(this.i, this.i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
      this.i += 4;
      return String.fromCharCode(parseInt(hex, 16));
    }
    if (e in JSON_ESCAPES) return JSON_ESCAPES[e]!;
    this.fail();
  }
}
