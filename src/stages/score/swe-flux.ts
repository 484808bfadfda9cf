/**
 * `scoring: swe-flux`: SWE-Flux's `score_answer`, rule for rule, leniencies
 * included, so tracegate's numbers compare with its paper's. Values are
 * Python's (score/python/): json.loads, ast.literal_eval, float(), ==.
 * Where SWE-Flux's scorer raises (float() of an int beyond a float's range),
 * the answer counts as incorrect. docs/scoring.md lists every rule.
 */
import { pyEquals } from './python/equality.js';
import { jsonLoads } from './python/json-reader.js';
import { literalEval } from './python/literal-reader.js';
import { isClose, isSignedDigits, pyFloat, pyInt, pyStrip, toFloat } from './python/numbers.js';
import { hasKey, isDict, isPyNumber, type PyValue } from './python/values.js';

export const SWE_FLUX_TOLERANCE = 1e-6;

/** Keys whose lists are sets in SWE-Flux's scorer (matched greedily, as a multiset). */
export const SWE_FLUX_SET_KEYS: ReadonlySet<string> = new Set([
  'observed_def_use_pairs',
  'covered_def_use_pairs',
  'covered_du_pairs',
  'uncovered_du_pairs_list',
  'covered_lines',
  'covered_functions',
  'union_lines_sorted',
  'intersection_lines_sorted',
  'lines_covered_by_only_one_test',
  'exception_types',
  'unique_values',
  'subtype_value_set',
  'guess_value_set',
  'safe_tests',
  'crashing_tests',
]);

/** Keys whose strings name code: paths, functions, classes. */
export const IDENTIFIER_KEYS: ReadonlySet<string> = new Set([
  'file',
  'func',
  'cls',
  'class',
  'concrete_class',
  'dispatched_file',
  'dispatched_function',
  'dispatched_class',
]);

/** `{"oracle_answer": X}` or `{"answer": X}` → X, once (SWE-Flux's pick_answer_payload). */
export function pickAnswerPayload(value: PyValue): PyValue {
  if (isDict(value)) {
    if (hasKey(value, 'oracle_answer')) return value.oracle_answer!;
    if (hasKey(value, 'answer')) return value.answer!;
  }
  return value;
}

export function scoreSweFlux(oracleAnswer: PyValue, prediction: PyValue): boolean {
  return sweFluxCompare(oracleAnswer, pickAnswerPayload(prediction), 'root', SWE_FLUX_TOLERANCE);
}

/** SWE-Flux's compare_values. */
export function sweFluxCompare(
  expected: PyValue,
  pred: PyValue,
  key: string,
  tol: number,
): boolean {
  expected = specialValue(expected);
  pred = specialValue(pred);
  if (isPyNumber(expected) && isPyNumber(pred)) return closeNumbers(expected, pred, tol);
  if (typeof expected === 'string' && typeof pred === 'string')
    return compareStrings(expected, pred, key);
  if (Array.isArray(expected)) {
    const list = typeof pred === 'string' ? (parseContainer(pred) ?? pred) : pred;
    if (!Array.isArray(list) || list.length !== expected.length) return false;
    if (SWE_FLUX_SET_KEYS.has(key)) return greedyMultiset(expected, list, key, tol);
    return expected.every((e, i) => sweFluxCompare(e, list[i]!, key, tol));
  }
  if (isDict(expected)) {
    const dict = typeof pred === 'string' ? (parseContainer(pred) ?? pred) : pred;
    if (!isDict(dict)) return false;
    const keys = Object.keys(expected);
    if (keys.some((k) => !hasKey(dict, k))) return false;
    return keys.every((k) => sweFluxCompare(expected[k]!, dict[k]!, k, tol));
  }
  if (typeof pred === 'string' && typeof expected !== 'string') {
    const coerced = coerceScalarString(pred);
    if (coerced.ok) {
      const cv = coerced.value;
      if (typeof expected === 'boolean') {
        if (typeof cv === 'boolean' && cv === expected) return true;
      } else if (expected === null) {
        if (cv === null) return true;
      } else if (isPyNumber(expected) && isPyNumber(cv)) {
        if (closeNumbers(expected, cv, tol)) return true;
      }
    }
  }
  return pyEquals(expected, pred);
}

function closeNumbers(a: number | bigint, b: number | bigint, tol: number): boolean {
  const [x, y] = [toFloat(a), toFloat(b)];
  return x !== undefined && y !== undefined && isClose(x, y, tol, tol);
}

function greedyMultiset(expected: PyValue[], pred: PyValue[], key: string, tol: number): boolean {
  const used = new Array<boolean>(pred.length).fill(false);
  return expected.every((e) => {
    const j = pred.findIndex((p, k) => !used[k] && sweFluxCompare(e, p, key, tol));
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
}

/** `mappingproxy({...})` → the dict it shows (SWE-Flux's normalize_special_value). */
export function specialValue(value: PyValue): PyValue {
  if (typeof value !== 'string') return value;
  const m = /^mappingproxy\(([\s\S]*)\)$/.exec(pyStrip(value));
  if (!m) return value;
  const parsed = literalEval(pyStrip(m[1]!));
  return parsed !== undefined && isDict(parsed) ? parsed : value;
}

/** A list or dict the model sent as its text: json.loads, else ast.literal_eval; only lists and dicts count. */
export function parseContainer(s: string): PyValue | undefined {
  const t = pyStrip(s);
  if (!t || !'[{'.includes(t[0]!)) return undefined;
  for (const parse of [jsonLoads, literalEval]) {
    const v = parse(t);
    if (v !== undefined && (Array.isArray(v) || isDict(v))) return v;
  }
  return undefined;
}

/** '282', 'true', 'null', '8.0' → the scalar (SWE-Flux's _coerce_scalar_string). */
export function coerceScalarString(s: string): { ok: true; value: PyValue } | { ok: false } {
  const t = pyStrip(s);
  const low = t.toLowerCase();
  if (low === 'true') return { ok: true, value: true };
  if (low === 'false') return { ok: true, value: false };
  if (low === 'null' || low === 'none') return { ok: true, value: null };
  if (isSignedDigits(t)) {
    // SWE-Flux tries int() alone here: a digit string int() refuses (beyond its digit limit) is not retried as a float.
    const n = pyInt(t);
    return n === undefined ? { ok: false } : { ok: true, value: n };
  }
  const f = pyFloat(t);
  return f === undefined ? { ok: false } : { ok: true, value: f };
}

// -- strings -----------------------------------------------------------------

export function normalizePath(s: string): string {
  let out = pyStrip(s).replace(/\\/g, '/');
  while (out.includes('//')) out = out.replace(/\/\//g, '/');
  if (out.startsWith('./')) out = out.slice(2);
  if (out.endsWith('/') && out.length > 1) out = out.slice(0, -1);
  return out;
}

function dottedToPath(s: string): string {
  if (s.includes('/') || s.includes('\\')) return normalizePath(s);
  if (s.includes('.')) return normalizePath(s.replace(/\./g, '/'));
  return s;
}

function identifierVariants(s: string, key: string): Set<string> {
  const raw = pyStrip(s);
  const variants = new Set([raw, normalizePath(raw), dottedToPath(raw)]);
  if (key.toLowerCase().includes('file')) {
    for (const v of [...variants]) variants.add(v.endsWith('.py') ? v.slice(0, -3) : `${v}.py`);
  }
  return variants;
}

function isAltString(s: string): boolean {
  if (!s.includes('|||')) return false;
  const parts = s.split('|||').map(pyStrip);
  return parts.length >= 2 && parts.every((p) => p !== '');
}

function enumCanonical(s: string): string {
  let token = pyStrip(s);
  if (token.startsWith('<') && token.endsWith('>') && token.length > 2)
    token = pyStrip(token.slice(1, -1));
  if (token.includes('.')) token = token.split('.').pop()!;
  return token.toUpperCase();
}

function stripClassRepr(s: string): string {
  const m = /^<class\s+'([^']+)'>$/.exec(pyStrip(s));
  return m ? m[1]! : pyStrip(s);
}

function stripCondition(s: string): string {
  let t = pyStrip(s).replace(/^(if|elif|while|for|assert)\b\s*/, '');
  if (t.endsWith(':')) t = t.slice(0, -1);
  return pyStrip(t);
}

function componentSuffixMatch(a: string, b: string): boolean {
  const split = (s: string) => pyStrip(s).split(/[./]/).filter(Boolean);
  const [x, y] = [split(a), split(b)];
  if (!x.length || !y.length) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.every((part, i) => part === long[long.length - short.length + i]);
}

function compareStringSingle(expected: string, pred: string, key: string): boolean {
  if (expected === pred) return true;
  const k = key.toLowerCase();
  if (k === 'condition' && stripCondition(expected) === stripCondition(pred)) return true;
  if (IDENTIFIER_KEYS.has(k)) {
    const [e, p] = [stripClassRepr(expected), stripClassRepr(pred)];
    if (e === p || componentSuffixMatch(e, p)) return true;
  }
  const left = identifierVariants(expected, key);
  const right = identifierVariants(pred, key);
  if ([...left].some((v) => right.has(v))) return true;
  if (k === 'type' || k === 'status') return enumCanonical(expected) === enumCanonical(pred);
  return false;
}

function compareStrings(expected: string, pred: string, key: string): boolean {
  if (compareStringSingle(expected, pred, key)) return true;
  return (
    isAltString(expected) &&
    expected.split('|||').some((alt) => compareStringSingle(pyStrip(alt), pred, key))
  );
}
