/**
 * Structural comparison of a prediction with an oracle answer, following the
 * rules of SWE-Flux's scorer so both tools give the same verdict:
 * numbers within a tolerance, lists in order except under known set-valued
 * keys, expected keys required (extra keys ignored), scalar strings coerced,
 * file/func identifiers matched by path or dotted suffix, `|||` alternatives.
 */

/** Keys whose lists are sets (multiset match); every other list is ordered. */
export const ORDER_INSENSITIVE_LIST_KEYS: ReadonlySet<string> = new Set([
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

const IDENTIFIER_KEYS = new Set([
  'file',
  'func',
  'cls',
  'class',
  'concrete_class',
  'dispatched_file',
  'dispatched_function',
  'dispatched_class',
]);

export const DEFAULT_TOLERANCE = 1e-6;

export function compareValues(
  expected: unknown,
  predicted: unknown,
  key = 'root',
  tol = DEFAULT_TOLERANCE,
): boolean {
  if (isNumber(expected) && isNumber(predicted)) return close(expected, predicted, tol);
  if (typeof expected === 'string' && typeof predicted === 'string')
    return compareStrings(expected, predicted, key);
  if (Array.isArray(expected)) {
    const list = typeof predicted === 'string' ? parseContainer(predicted) : predicted;
    if (!Array.isArray(list) || list.length !== expected.length) return false;
    if (ORDER_INSENSITIVE_LIST_KEYS.has(key)) return compareUnordered(expected, list, key, tol);
    return expected.every((e, i) => compareValues(e, list[i], key, tol));
  }
  if (isObject(expected)) {
    const obj = typeof predicted === 'string' ? parseContainer(predicted) : predicted;
    if (!isObject(obj)) return false;
    return Object.entries(expected).every(([k, v]) => k in obj && compareValues(v, obj[k], k, tol));
  }
  if (
    typeof predicted === 'string' &&
    (expected === null || typeof expected === 'boolean' || isNumber(expected))
  ) {
    const coerced = coerceScalar(predicted);
    if (typeof expected === 'boolean') return coerced === expected;
    if (expected === null) return coerced === null;
    return isNumber(coerced) && close(expected, coerced, tol);
  }
  return expected === predicted;
}

function compareUnordered(
  expected: unknown[],
  predicted: unknown[],
  key: string,
  tol: number,
): boolean {
  const used = new Array<boolean>(predicted.length).fill(false);
  return expected.every((e) => {
    const i = predicted.findIndex((p, j) => !used[j] && compareValues(e, p, key, tol));
    if (i < 0) return false;
    used[i] = true;
    return true;
  });
}

export function compareStrings(expected: string, predicted: string, key: string): boolean {
  if (compareSingle(expected, predicted, key)) return true;
  const alternatives = expected
    .split('|||')
    .map((s) => s.trim())
    .filter(Boolean);
  return alternatives.length >= 2 && alternatives.some((alt) => compareSingle(alt, predicted, key));
}

function compareSingle(expected: string, predicted: string, key: string): boolean {
  if (expected === predicted) return true;
  const k = key.toLowerCase();
  if (k === 'condition') {
    const strip = (s: string) =>
      s
        .trim()
        .replace(/^(if|elif|while|for|assert)\s+/, '')
        .replace(/:$/, '')
        .trim();
    if (strip(expected) === strip(predicted)) return true;
  }
  if (IDENTIFIER_KEYS.has(k)) {
    const unwrap = (s: string) => s.trim().replace(/^<class '(.*)'>$/, '$1');
    const [a, b] = [unwrap(expected), unwrap(predicted)];
    if (a === b || componentSuffixMatch(a, b)) return true;
  }
  const left = identifierVariants(expected, k);
  const right = identifierVariants(predicted, k);
  if ([...left].some((v) => right.has(v))) return true;
  if (k === 'type' || k === 'status') return enumCanonical(expected) === enumCanonical(predicted);
  return false;
}

function componentSuffixMatch(a: string, b: string): boolean {
  const split = (s: string) => s.split(/[./]/).filter(Boolean);
  const [x, y] = [split(a), split(b)];
  if (!x.length || !y.length) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.every((part, i) => part === long[long.length - short.length + i]);
}

function identifierVariants(s: string, key: string): Set<string> {
  const raw = s.trim();
  const path = raw
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^\.\//, '')
    .replace(/\/$/, '');
  const variants = new Set([raw, path]);
  if (!path.includes('/') && path.includes('.')) variants.add(path.replace(/\./g, '/'));
  if (key.includes('file')) {
    for (const v of [...variants]) variants.add(v.endsWith('.py') ? v.slice(0, -3) : `${v}.py`);
  }
  return variants;
}

function enumCanonical(s: string): string {
  const parts = s.replace(/[<>]/g, '').trim().split('.');
  return (parts[parts.length - 1] ?? '').split(':')[0]!.trim().toUpperCase();
}

function coerceScalar(s: string): unknown {
  const t = s.trim();
  if (/^true$/i.test(t)) return true;
  if (/^false$/i.test(t)) return false;
  if (/^(null|none)$/i.test(t)) return null;
  if (/^[+-]?\d+$/.test(t)) return parseInt(t, 10);
  const f = Number(t);
  return t !== '' && Number.isFinite(f) ? f : s;
}

function parseContainer(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function close(a: number, b: number, tol: number): boolean {
  return Math.abs(a - b) <= Math.max(tol * Math.max(Math.abs(a), Math.abs(b)), tol);
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
