import { depthOf, MAX_JSON_DEPTH } from '../../util/json.js';
/**
 * A forgiving JSON reader for model output: strict JSON plus the slips models
 * make that leave the meaning unambiguous — single-quoted strings (Python
 * dict reprs), trailing commas, Python's True/False/None, bare identifier
 * keys, comments. It reads one value from `start` and reports where it ended, so a
 * scanner can pull the first complete object out of surrounding prose.
 */
export type LenientResult =
  { ok: true; value: unknown; end: number } | { ok: false; eof: boolean; at: number };

const MAX_DEPTH = MAX_JSON_DEPTH;
// Sticky: matched at lastIndex without slicing the text.
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_]\w{0,15}/y;

class Stop extends Error {
  constructor(
    readonly eof: boolean,
    readonly at: number,
  ) {
    super('stop');
  }
}

/** Parses one value starting at `start` (leading whitespace skipped). */
export function parseLenientAt(text: string, start = 0): LenientResult {
  let i = start;
  const fail = (): never => {
    throw new Stop(i >= text.length, i);
  };
  const ws = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      // Comments inside an object (// … or /* … */), as JSONC-minded models write them.
      if (text.startsWith('//', i)) {
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? text.length : nl + 1;
      } else if (text.startsWith('/*', i)) {
        const close = text.indexOf('*/', i + 2);
        i = close < 0 ? text.length : close + 2;
      } else return;
    }
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail();
    ws();
    const c = text[i];
    if (c === undefined) return fail();
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"' || c === "'") return string();
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      i += number[0].length;
      return Number(number[0]);
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text)?.[0];
    const literals: Record<string, unknown> = {
      true: true,
      false: false,
      null: null,
      True: true,
      False: false,
      None: null,
    };
    if (word !== undefined && word in literals) {
      i += word.length;
      return literals[word];
    }
    return fail();
  };
  const string = (): string => {
    const quote = text[i++];
    let out = '';
    while (i < text.length) {
      const c = text[i++]!;
      if (c === quote) return out;
      if (c === '\n' && quote === "'") fail(); // a prose apostrophe, not a string
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[i++];
      if (e === undefined) return fail();
      if (e === 'u') {
        const hex = text.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail();
        out += String.fromCharCode(parseInt(hex, 16));
        i += 4;
      } else
        out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
    }
    return fail();
  };
  const key = (): string => {
    ws();
    const c = text[i];
    if (c === '"' || c === "'") return string();
    const ident = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 128))?.[0];
    if (!ident) return fail();
    i += ident.length;
    return ident;
  };
  const object = (depth: number): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      const k = key();
      ws();
      if (text[i] !== ':') fail();
      i++;
      // An own property, as JSON.parse makes it: `__proto__` is a plain key, never a prototype.
      Object.defineProperty(out, k, {
        value: value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      ws();
      if (text[i] === ',') i++;
      else if (text[i] !== '}') fail();
    }
  };
  const array = (depth: number): unknown[] => {
    i++;
    const out: unknown[] = [];
    for (;;) {
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      out.push(value(depth + 1));
      ws();
      if (text[i] === ',') i++;
      else if (text[i] !== ']') fail();
    }
  };
  try {
    const v = value(0);
    return { ok: true, value: v, end: i };
  } catch (error) {
    if (error instanceof Stop) return { ok: false, eof: error.eof, at: error.at };
    throw error;
  }
}

/**
 * The whole text as one value (strict JSON first, then lenient); undefined if
 * it is not, or if it nests deeper than any answer template can (64 levels).
 */
export function parseWhole(text: string): { value: unknown } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const r = parseLenientAt(text, 0);
    return r.ok && text.slice(r.end).trim() === '' ? { value: r.value } : undefined;
  }
  return depthOf(parsed) > MAX_DEPTH ? undefined : { value: parsed };
}
