/**
 * `scoring: strict` (the default for gating): SWE-Flux's normalisations
 * where they are sound, none of its false accepts. Each difference from
 * swe-flux.ts is a numbered rule in docs/scoring.md, with an example:
 *
 *  1. the `{"answer": X}` wrapper is unwrapped only when the oracle is not
 *     itself an object with that key;
 *  2. integers compare exactly at any size; a tolerance only where a float is involved;
 *  3. booleans are never numbers (true ≠ 1), in either direction;
 *  4. identifier suffixes match on whole components (`.py` is not one), so
 *     `"py"` names no file;
 *  5. a condition's keyword is significant (`while x:` ≠ `if x:`); a bare
 *     expression still matches the keyword form;
 *  6. no `.`→`/` rewriting, `.py` toggling or path clean-up outside keys that
 *     name files and modules;
 *  7. set-valued lists are matched optimally (a maximum bipartite matching),
 *     not greedily;
 *  8. a test id (under keys naming tests) is the same test with its file's
 *     path spelled with a leading `./` or repeated `/`; nothing else of it is loosened.
 */
import { integral, isClose, pyStrip, toFloat } from './python/numbers.js';
import { hasKey, isDict, isPyNumber, type PyValue } from './python/values.js';
import {
  coerceScalarString,
  IDENTIFIER_KEYS,
  normalizePath,
  parseContainer,
  specialValue,
  SWE_FLUX_SET_KEYS,
  SWE_FLUX_TOLERANCE,
} from './swe-flux.js';

export interface StrictOptions {
  /** Keys whose lists are sets (default: SWE-Flux's set keys). */
  setKeys?: ReadonlySet<string>;
  tolerance?: number;
}

export function scoreStrict(
  oracleAnswer: PyValue,
  prediction: PyValue,
  options: StrictOptions = {},
): boolean {
  const tol = options.tolerance ?? SWE_FLUX_TOLERANCE;
  const sets = options.setKeys ?? SWE_FLUX_SET_KEYS;
  return strictCompare(oracleAnswer, unwrap(oracleAnswer, prediction), 'root', tol, sets);
}

/** Rule 1: a wrapper the oracle does not have is dropped, once. */
function unwrap(oracle: PyValue, prediction: PyValue): PyValue {
  if (!isDict(prediction)) return prediction;
  for (const key of ['oracle_answer', 'answer']) {
    if (hasKey(prediction, key)) {
      return isDict(oracle) && hasKey(oracle, key) ? prediction : prediction[key]!;
    }
  }
  return prediction;
}

export function strictCompare(
  expected: PyValue,
  pred: PyValue,
  key: string,
  tol: number,
  sets: ReadonlySet<string>,
): boolean {
  expected = specialValue(expected);
  pred = specialValue(pred);
  if (isPyNumber(expected) && isPyNumber(pred)) return sameNumber(expected, pred, tol);
  if (typeof expected === 'string' && typeof pred === 'string')
    return sameString(expected, pred, key);
  if (Array.isArray(expected)) {
    const list = typeof pred === 'string' ? (parseContainer(pred) ?? pred) : pred;
    if (!Array.isArray(list) || list.length !== expected.length) return false;
    const same = (e: PyValue, p: PyValue) => strictCompare(e, p, key, tol, sets);
    if (sets.has(key)) return perfectMatching(expected, list, same);
    return expected.every((e, i) => same(e, list[i]!));
  }
  if (isDict(expected)) {
    const dict = typeof pred === 'string' ? (parseContainer(pred) ?? pred) : pred;
    if (!isDict(dict)) return false;
    return Object.keys(expected).every(
      (k) => hasKey(dict, k) && strictCompare(expected[k]!, dict[k]!, k, tol, sets),
    );
  }
  if (typeof pred === 'string') {
    // A scalar sent as text: '282', 'true', 'null' — of the oracle's own type (rule 3).
    const coerced = coerceScalarString(pred);
    if (!coerced.ok) return false;
    return strictCompare(expected, coerced.value, key, tol, sets);
  }
  if (typeof expected === 'boolean' || typeof pred === 'boolean') return expected === pred;
  if (expected === null || pred === null) return expected === pred;
  return false;
}

/** Rule 2: integers exactly; floats within the tolerance. */
function sameNumber(a: number | bigint, b: number | bigint, tol: number): boolean {
  const [x, y] = [integral(a), integral(b)];
  if (x !== undefined && y !== undefined) return x === y;
  const [fa, fb] = [toFloat(a), toFloat(b)];
  return fa !== undefined && fb !== undefined && isClose(fa, fb, tol, tol);
}

/** Keys that name files or modules: the only ones whose strings are paths (rule 6). */
function isPathKey(key: string): boolean {
  const k = key.toLowerCase();
  return k.includes('file') || k.includes('module');
}

function sameString(expected: string, pred: string, key: string): boolean {
  if (sameSingle(expected, pred, key)) return true;
  if (!expected.includes('|||')) return false;
  const alternatives = expected.split('|||').map(pyStrip);
  return (
    alternatives.length >= 2 &&
    alternatives.every((a) => a !== '') &&
    alternatives.some((a) => sameSingle(a, pred, key))
  );
}

function sameSingle(expected: string, pred: string, key: string): boolean {
  if (expected === pred) return true;
  const k = key.toLowerCase();
  if (isTestKey(k)) return testId(expected) === testId(pred);
  if (k === 'condition') return sameCondition(expected, pred);
  if (IDENTIFIER_KEYS.has(k) || isPathKey(k)) return sameIdentifier(expected, pred, isPathKey(k));
  if (k === 'type' || k === 'status') return enumName(expected) === enumName(pred);
  return pyStrip(expected) === pyStrip(pred);
}

/** Keys whose strings are test ids (`tests/test_a.py::TestB::test_c`). */
function isTestKey(k: string): boolean {
  return k === 'test' || k === 'tests' || k.endsWith('_tests') || k === 'nodeid';
}

/** Rule 8: the file part of a test id with `./` prefixes and repeated `/` undone; the rest as given. */
function testId(s: string): string {
  const t = pyStrip(s);
  const at = t.indexOf('::');
  let file = at < 0 ? t : t.slice(0, at);
  file = file.replace(/\/{2,}/g, '/');
  while (file.startsWith('./')) file = file.slice(2);
  return at < 0 ? file : file + t.slice(at);
}

/** Rule 5: `if x:` ≡ `if x` ≡ `x`, but `while x:` ≢ `if x:`. */
function sameCondition(expected: string, pred: string): boolean {
  const parse = (s: string) => {
    let t = pyStrip(s);
    if (t.endsWith(':')) t = pyStrip(t.slice(0, -1));
    const m = /^(if|elif|while|for|assert)\b\s*([\s\S]*)$/.exec(t);
    return m ? { keyword: m[1], body: pyStrip(m[2]!) } : { keyword: undefined, body: t };
  };
  const [e, p] = [parse(expected), parse(pred)];
  if (e.body !== p.body) return false;
  return e.keyword === p.keyword || e.keyword === undefined || p.keyword === undefined;
}

/**
 * Rule 4: the components of a name — a path's parts with a final `.py` dropped, or a
 * dotted name's parts — and a match when one list is a tail of the other.
 */
function sameIdentifier(expected: string, pred: string, pathKey: boolean): boolean {
  const [e, p] = [components(expected, pathKey), components(pred, pathKey)];
  if (!e.length || !p.length) return false;
  const [short, long] = e.length <= p.length ? [e, p] : [p, e];
  return short.every((part, i) => part === long[long.length - short.length + i]);
}

function components(s: string, pathKey: boolean): string[] {
  let t = pyStrip(s);
  const m = /^<class\s+'([^']+)'>$/.exec(t);
  if (m) t = m[1]!;
  if (pathKey || t.includes('/') || t.includes('\\')) {
    t = normalizePath(t);
    if (t.endsWith('.py')) return t.slice(0, -3).split('/').filter(Boolean);
    if (t.includes('/')) return t.split('/').filter(Boolean);
  }
  return t.split('.').filter(Boolean);
}

function enumName(s: string): string {
  let token = pyStrip(s);
  if (token.startsWith('<') && token.endsWith('>') && token.length > 2)
    token = pyStrip(token.slice(1, -1));
  const m = /^class\s+'([^']+)'$/.exec(token);
  if (m) token = m[1]!;
  return (token.split('.').pop() ?? '').toUpperCase();
}

/** Rule 7: every expected element paired with a distinct predicted one, if any pairing exists (Kuhn's algorithm). */
export function perfectMatching(
  expected: PyValue[],
  pred: PyValue[],
  same: (e: PyValue, p: PyValue) => boolean,
): boolean {
  const edges = expected.map((e) =>
    pred.map((p, j) => (same(e, p) ? j : -1)).filter((j) => j >= 0),
  );
  const owner = new Array<number>(pred.length).fill(-1);
  const augment = (i: number, seen: boolean[]): boolean => {
    for (const j of edges[i]!) {
      if (seen[j]) continue;
      seen[j] = true;
      if (owner[j]! < 0 || augment(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  return expected.every((_, i) => augment(i, new Array<boolean>(pred.length).fill(false)));
}
