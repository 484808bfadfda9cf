// `tracegate generate`'s options: an environment, a directory of test files, where the suite goes.
import { z } from 'zod';
import { int } from './option-values.js';
import { harvestOptionsSchema, parseWith } from './options.js';

/** `tracegate generate`: an environment, a directory of test files, where the suite goes. */
export const generateOptionsSchema = harvestOptionsSchema
  .pick({
    cache: true,
    backend: true,
    'base-image': true,
    'retry-failed': true,
    'image-registry': true,
    'image-registry-push': true,
  })
  .extend({
    /** An environment recipe file (any source: packages, git, image); with --repo, its packages and python. */
    environment: z.string().optional(),
    /** A git checkout: the suite's environment is that repository at its HEAD commit. */
    repo: z.string().optional(),
    /** The interpreter of a --repo environment without --environment. */
    python: z
      .string()
      .regex(/^3\.\d+$/, '--python must be a version like 3.11')
      .default('3.11'),
    /** Directory of self-contained test files (test_*.py). */
    tests: z.string({ error: '--tests DIR is required (a directory of test_*.py files)' }),
    /** Suite root written into. */
    out: z.string({ error: '--out DIR is required (the suite to write into)' }),
    /** Import names whose code is asked about (default: the environment's name). */
    packages: z
      .string()
      .regex(/^[A-Za-z_][\w.]*(,[A-Za-z_][\w.]*)*$/, '--packages: import names, comma-separated')
      .transform((v) => v.split(','))
      .optional(),
    /** The folder under --out and the id prefix (default: the environment's name). */
    suite: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, '--suite: lowercase letters, digits and -')
      .optional(),
    seed: int('seed', 0, 2 ** 31).default(0),
    'targets-per-file': int('targets-per-file', 1, 500).default(12),
    max: int('max', 1, 100_000).optional(),
    timeout: int('timeout', 1, 3600).default(60),
    /** Where the report of kept and rejected candidates goes (default OUT/SUITE/generate-report.json). */
    report: z.string().optional(),
    /**
     * The variant screen's epoch (keep only instances a run finds a fresh variant of), or off.
     * Default 0: no run's epoch unless asked (runs default to 1; `auto` gives the ISO week).
     */
    'variant-screen': z
      .string()
      .regex(
        /^(off|\d{1,10})$/,
        '--variant-screen must be off or an epoch (a whole number), e.g. 0',
      )
      .default('0')
      .transform((v) => (v === 'off' ? undefined : Number(v)))
      .refine(
        (v) => v === undefined || v <= 2 ** 31,
        '--variant-screen must be at most 2147483648',
      ),
  });
export type GenerateOptions = z.infer<typeof generateOptionsSchema>;
export type GenerateOptionName = keyof z.input<typeof generateOptionsSchema>;
export const GENERATE_OPTION_NAMES = Object.keys(
  generateOptionsSchema.shape,
) as GenerateOptionName[];

export function parseGenerateOptions(
  raw: Partial<Record<GenerateOptionName, string | undefined>>,
): GenerateOptions {
  return parseWith(generateOptionsSchema, raw);
}
