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

/** Sets a dict entry as an own property. */
export function setKey(dict: PyDict, key: string, value: PyValue): void {
  // defineProperty: a key named __proto__ is a key like any other.
  Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Python's `isinstance(x, (int, float)) and not isinstance(x, bool)`. */
export function isPyNumber(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}
