import { z } from 'zod';
import type { Template } from '../../contracts/instance.js';
import type { ParseFailure } from './extract.js';
import { parseWhole } from './lenient.js';

export type Validation =
  { ok: true; value: unknown } | { ok: false; failure: ParseFailure; detail: string };

const numeric = z.union([
  z.number(),
  z.string().refine((s) => s.trim() !== '' && !Number.isNaN(Number(s)), 'not a number'),
]);
const boolean = z.union([z.boolean(), z.string().regex(/^(true|false)$/i, 'not a bool')]);
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A container sent as its JSON text (`"[1, 2]"`): the scorer reads those too. */
const fromText = (v: unknown): unknown =>
  typeof v === 'string' && /^\s*[[{]/.test(v) ? (parseWhole(v.trim())?.value ?? v) : v;

function leaf(type: string): z.ZodType {
  const alternatives = type.split('|').map((t) => t.trim().toLowerCase());
  const schemas = alternatives.map((t): z.ZodType => {
    if (t === 'int' || t === 'float' || t === 'number') return numeric;
    if (t === 'bool') return boolean;
    if (t === 'null' || t === 'none') return z.null();
    if (t === 'list') return z.array(z.unknown());
    if (t === 'dict') return z.record(z.string(), z.unknown());
    return scalar;
  });
  return schemas.length === 1 ? schemas[0]! : z.union(schemas as [z.ZodType, z.ZodType]);
}

/**
 * The zod schema of an answer template: leaves are type names ("int",
 * "float", "str", "bool", unions like "int|null"); lists hold their first
 * element's type; objects require every template key and drop extra keys.
 * Numeric and boolean strings pass (the scorer coerces them, as SWE-Flux's does).
 */
export function templateToSchema(template: Template): z.ZodType {
  if (typeof template === 'string') return leaf(template);
  if (Array.isArray(template)) {
    const item = template[0];
    return z.preprocess(
      fromText,
      z.array(item === undefined ? z.unknown() : templateToSchema(item)),
    );
  }
  return z.preprocess(
    fromText,
    z.object(
      Object.fromEntries(Object.entries(template).map(([k, t]) => [k, templateToSchema(t)])),
    ),
  );
}

function describe(error: z.ZodError, value: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'does not match the template';
  const path = [
    '$',
    ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)),
  ].join('');
  let got: unknown = value;
  for (const p of issue.path) got = (got as Record<PropertyKey, unknown> | undefined)?.[p];
  const shown = got === undefined ? 'missing' : `got ${JSON.stringify(got)?.slice(0, 40)}`;
  return `${path}: ${issue.message} (${shown})`;
}

/**
 * Checks a parsed reply against the instance's answer template with zod.
 * Accepts SWE-Flux's `{"answer": …}` wrapper when the template itself has no
 * `answer` key. Returns the value with extra keys dropped.
 */
export function validateAgainstTemplate(value: unknown, template: Template): Validation {
  const schema = templateToSchema(template);
  const direct = schema.safeParse(value);
  if (direct.success) return { ok: true, value: direct.data };
  const templateHasAnswer =
    typeof template === 'object' && !Array.isArray(template) && 'answer' in template;
  if (!templateHasAnswer && isObject(value) && 'answer' in value) {
    const unwrapped = schema.safeParse(value.answer);
    if (unwrapped.success) return { ok: true, value: unwrapped.data };
    return {
      ok: false,
      failure: 'schema_mismatch',
      detail: describe(unwrapped.error, value.answer),
    };
  }
  return { ok: false, failure: 'schema_mismatch', detail: describe(direct.error, value) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
