import type { Template } from '../instances/schema.js';
import type { ParseFailure } from './extract.js';

export type Validation =
  { ok: true; value: unknown } | { ok: false; failure: ParseFailure; detail: string };

/**
 * Checks a parsed reply against the instance's answer template: every
 * template key present, values of the leaf type ("int", "float", "str",
 * "bool"). Unwraps `{"answer": …}` as SWE-Flux does. Scalars that are numeric
 * or boolean strings are left for the scorer, which coerces them.
 */
export function validateAgainstTemplate(value: unknown, template: Template): Validation {
  let candidate = value;
  const templateHasAnswer = isObject(template) && 'answer' in template;
  if (
    !templateHasAnswer &&
    isObject(candidate) &&
    'answer' in candidate &&
    Object.keys(candidate).length === 1
  ) {
    candidate = candidate.answer;
  }
  const problem = check(candidate, template, '$');
  return problem
    ? { ok: false, failure: 'schema_mismatch', detail: problem }
    : { ok: true, value: candidate };
}

function check(value: unknown, template: Template, path: string): string | undefined {
  if (typeof template === 'string') {
    switch (template) {
      case 'int':
      case 'float':
        return typeof value === 'number' ||
          (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
          ? undefined
          : `${path}: expected ${template}, got ${JSON.stringify(value)?.slice(0, 40)}`;
      case 'bool':
        return typeof value === 'boolean' ||
          (typeof value === 'string' && /^(true|false)$/i.test(value))
          ? undefined
          : `${path}: expected bool`;
      default:
        return value === null || typeof value === 'object'
          ? `${path}: expected a scalar`
          : undefined;
    }
  }
  if (Array.isArray(template)) {
    if (!Array.isArray(value)) return `${path}: expected a list`;
    const item = template[0];
    if (item === undefined) return undefined;
    for (let i = 0; i < value.length; i++) {
      const problem = check(value[i], item, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isObject(value)) return `${path}: expected an object`;
  for (const [key, sub] of Object.entries(template)) {
    if (!(key in value)) return `${path}.${key}: missing`;
    const problem = check(value[key], sub, `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
