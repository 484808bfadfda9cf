import { z } from 'zod';
import { isCometKind, isWorldKind, QUESTION_KINDS } from './kinds.js';

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
    /** The declarative query the tracer answers, with the kind's parameters. */
    query: z.record(z.string(), z.unknown()),
    /**
     * A Python file in the instance directory defining `answer(trace, query)`,
     * for a question no standard query covers. Only then are `question` and
     * `template_answer` written by hand; otherwise the tracer generates both
     * from `query`, so wording and answer cannot drift.
     */
    parser: z
      .string()
      .regex(/^[\w.-]+\.py$/, 'a .py file in the instance directory')
      .optional(),
    /** The question text shown to the model (only with `parser`). */
    question: z.string().min(1).optional(),
    /** The answer's shape, also the reply's parse schema (only with `parser`). */
    template_answer: templateSchema.optional(),
    /** Per-instance wall-clock limit for running its tests under the tracer. */
    timeout_seconds: z.number().int().positive().max(3600).default(120),
    /**
     * Where pytest runs and `tests` are relative to: the instance directory
     * (default), or the environment's checkout (`git` and `image` sources),
     * so a repository's own tests run with its own pytest configuration.
     */
    cwd: z.enum(['instance', 'checkout']).default('instance'),
    /**
     * The tests are expected to fail (world-model kinds ask about failures).
     * Otherwise a failing run never becomes an oracle.
     */
    expect_failure: z.boolean().default(false),
    /**
     * A seeded mutant of the package's code (world-model kinds): `original`
     * replaced once by `replacement` on `line` of `file`, in a private copy of
     * its package that the tests import instead (tracer/README.md).
     */
    mutant: z
      .object({
        file: z.string().regex(/^[\w./-]+\.py$/, 'a .py path relative to site-packages'),
        line: z.number().int().positive(),
        original: z.string().min(1),
        replacement: z.string(),
        /** What the mutation does, in words (`flipped comparison`, `off by one`, `wrong default`). */
        description: z.string().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((instance, ctx) => {
    // World-model kinds measure one test as the runner runs it (tracer/README.md).
    if (isWorldKind(instance.kind)) {
      if (instance.tests.length !== 1 || !instance.tests[0]!.includes('::'))
        ctx.addIssue({
          code: 'custom',
          path: ['tests'],
          message:
            'world-model kinds ask about one test: give exactly one pytest node id (file::test)',
        });
    } else if (isCometKind(instance.kind)) {
      // B1/B2 ask about a mutant whose killing input the instance records (tracer/README.md, "Comet's kinds").
      if (!instance.mutant)
        ctx.addIssue({
          code: 'custom',
          path: ['mutant'],
          message: 'B1/B2 ask about a bug: give the mutant {file, line, original, replacement}',
        });
      else if (!/^[A-Za-z_]\w*\//.test(instance.mutant.file))
        ctx.addIssue({
          code: 'custom',
          path: ['mutant', 'file'],
          message: 'B1/B2 mutate a module inside a package (`pkg/module.py`)',
        });
      if (!('input' in instance.query))
        ctx.addIssue({
          code: 'custom',
          path: ['query', 'input'],
          message: 'B1/B2 need the input that exposes the mutant (`query.input`)',
        });
      if (instance.mutant && instance.mutant.file !== instance.target.file)
        ctx.addIssue({
          code: 'custom',
          path: ['mutant', 'file'],
          message: "B1/B2 mutate the target function's own file",
        });
    } else if (instance.mutant) {
      ctx.addIssue({
        code: 'custom',
        path: ['mutant'],
        message: 'only world-model kinds (W1-W4) and B1/B2 take a mutant',
      });
    }
    if (instance.mutant?.file.split('/').includes('..'))
      ctx.addIssue({
        code: 'custom',
        path: ['mutant', 'file'],
        message: 'a path inside the environment (no `..`)',
      });
    for (const field of ['question', 'template_answer'] as const) {
      if (instance.parser && instance[field] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `required with a custom parser` });
      }
      if (!instance.parser && instance[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message:
            'generated by the tracer from `query`; remove it (or add a `parser` for a custom question)',
        });
      }
    }
  });

export type Instance = z.infer<typeof instanceSchema>;
export type Target = z.infer<typeof targetSchema>;

/** Formats zod issues as `field: message` lines, naming the exact path. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
