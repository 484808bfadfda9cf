/** Python's `==` and hashability for the values of values.ts. */
import { integral } from './numbers.js';
import { hasKey, isDict, isPyNumber, PyOpaque, PySet, PyTuple, type PyValue } from './values.js';

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
    return a instanceof PySet && b instanceof PySet && sameMembers(a.items, b.items);
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

function sameMembers(a: PyValue[], b: PyValue[]): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => pyEquals(x, y)));
}

/** Whether Python could hash the value (a set member, a dict key): no lists, sets or dicts inside. */
export function hashable(v: PyValue): boolean {
  if (Array.isArray(v) || v instanceof PySet || isDict(v)) return false;
  if (v instanceof PyTuple) return v.items.every(hashable);
  return true;
}
