import { z } from 'zod';
import { QUESTION_KINDS } from './kinds.js';

/** A template answer: the answer's shape with type names ("str", "int", …) as leaves. */
export type Template = string | Template[] | { [key: string]: Template };
export const templateSchema: z.ZodType<Template> = z.lazy(() =>
  z.union([z.string(), z.array(templateSchema), z.record(z.string(), templateSchema)]),
);

/** Where the question points: a file (relative to site-packages or the instance dir) and a qualname. */
export const targetSchema = z.object({
  /** Path of the target's source file relative to site-packages, e.g. `click/parser.py`. */
  file: z.string().min(1),
  /** The function's `__qualname__`, e.g. `_OptionParser._process_opts`. */
  function: z.string().min(1),
});

/** One benchmark instance (instances/<suite>/<id>/instance.json). */
export const instanceSchema = z
  .object({
    /** Editors' schema reference; ignored. */
    $schema: z.string().optional(),
    /** Unique, stable id; also the directory name. */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ - only'),
    /** SWE-Flux question kind. */
    kind: z.enum(QUESTION_KINDS),
    /** Name of an environment recipe in instances/environments/. */
    environment: z.string().min(1),
    /** pytest node ids relative to the instance directory. */
    tests: z.array(z.string().min(1)).min(1),
    target: targetSchema,
    /** The question text shown to the model. */
    question: z.string().min(1),
    /** The answer's shape; also the parse schema for the model's reply. */
    template_answer: templateSchema,
    /** The declarative query the tracer answers, with the kind's parameters. */
    query: z.record(z.string(), z.unknown()),
    /** Per-instance wall-clock limit for running its tests under the tracer. */
    timeout_seconds: z.number().int().positive().max(3600).default(120),
  })
  .strict();

export type Instance = z.infer<typeof instanceSchema>;
export type Target = z.infer<typeof targetSchema>;

/** An environment recipe: interpreter + pinned packages, built into an image. */
export const environmentSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1),
    /** Interpreter version of the base image, e.g. "3.11". */
    python: z.string().regex(/^3\.\d+$/, 'a version like "3.11"'),
    /** Every package to install, pinned `name==version` (installed with --no-index). */
    packages: z.array(z.string().regex(/^[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+$/, 'name==version')),
    /** Overrides the default base image for this environment. */
    base_image: z.string().optional(),
  })
  .strict();

export type Environment = z.infer<typeof environmentSchema>;

/** Formats zod issues as `field: message` lines, naming the exact path. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
