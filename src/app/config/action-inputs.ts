import { z } from 'zod';
import { ON_INCONCLUSIVE } from '../../contracts/comparison.js';
import { runNameSchema } from '../../contracts/history.js';
import { parseRunOptions, RUN_OPTION_NAMES, type RunOptions } from './options.js';
import { UsageError } from '../../errors.js';
import type { ActionEnv } from '../action/runner.js';

const bool = (name: string) =>
  z
    .enum(['true', 'false'], { error: `input ${name} must be true or false` })
    .default('true')
    .transform((v) => v === 'true');

/** Inputs that only the Action has (reporting to GitHub), read in both modes. */
const reportingSchema = z.object({
  /**
   * gate: run and decide (with `shard: i/n`, answer one part and upload it); merge: the shards'
   * artifacts merged, then decide; report: post a fork PR's results from its artifact (workflow_run).
   */
  mode: z
    .enum(['gate', 'merge', 'report'], { error: 'input mode must be gate, merge or report' })
    .default('gate'),
  /** mode: merge — a directory holding the shards' results (default: this run's shard artifacts). */
  shards: z.string().default(''),
  'github-token': z.string().default(''),
  comment: bool('comment'),
  'check-run': bool('check-run'),
  'check-name': z.string().min(1).default('tracegate'),
  /** The PR label that turns a failing verdict into a recorded acceptance ('' turns it off). */
  'accept-label': z.string().default('tracegate:accept-regression'),
  /** Commits the comment's trend chart shows (0: no chart). */
  trend: z
    .string()
    .regex(/^\d{1,3}$/, 'input trend must be a whole number of commits (0 for no chart)')
    .default('10')
    .transform(Number),
  /** Run name and history (also run options), and the inconclusive policy, for mode: report. */
  name: runNameSchema.default('tracegate'),
  history: z.string().default('branch:tracegate-data'),
  'on-inconclusive': z.enum(ON_INCONCLUSIVE).default('neutral'),
  /** Bytes of environment images one run saves to the Actions cache (0: none). */
  'image-cache': z
    .string()
    .regex(
      /^(off|\d+(\.\d+)?\s*[MG]B)$/i,
      'input image-cache must be a size such as 2GB or 500MB, or off',
    )
    .default('2GB')
    .transform((v) => {
      const m = /^([\d.]+)\s*([MG])B$/i.exec(v);
      return m ? Math.round(Number(m[1]) * 1024 ** (m[2]!.toUpperCase() === 'G' ? 3 : 2)) : 0;
    }),
});
export type ReportingInputs = z.infer<typeof reportingSchema>;

export interface ActionInputs {
  run: RunOptions;
  reporting: ReportingInputs;
}

type Runner = Pick<ActionEnv, 'input' | 'setSecret'>;

const given = (env: Runner, name: string): string | undefined => env.input(name) || undefined;

/** The reporting inputs (both modes); errors name the input and value. */
export function readReportingInputs(env: Runner): ReportingInputs {
  const token = env.input('github-token');
  if (token) env.setSecret(token);
  const parsed = reportingSchema.safeParse(
    Object.fromEntries(Object.keys(reportingSchema.shape).map((k) => [k, given(env, k)])),
  );
  if (!parsed.success) {
    throw new UsageError(
      parsed.error.issues
        .map((i) =>
          i.message.startsWith('input ') ? i.message : `input ${i.path.join('.')}: ${i.message}`,
        )
        .join('; '),
    );
  }
  return parsed.data;
}

/** Every input of mode: gate once, into one typed object; errors name the input and value. */
export function readInputs(env: Runner, reporting: ReportingInputs): ActionInputs {
  const raw = Object.fromEntries(RUN_OPTION_NAMES.map((name) => [name, given(env, name)]));
  if (reporting.mode === 'merge') {
    // The merge asks no model: the model and endpoint are the shards' (their results hold them).
    raw.endpoint ??= 'http://shards.invalid';
    raw.model ??= 'shards';
    if (raw.shard)
      throw new UsageError('input shard is for the matrix jobs; mode: merge merges every shard');
  }
  const apiKey = raw['api-key'];
  if (apiKey) env.setSecret(apiKey);
  return { run: parseRunOptions(raw, 'action'), reporting };
}
