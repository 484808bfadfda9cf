import * as core from '@actions/core';
import { z } from 'zod';
import { parseRunOptions, RUN_OPTION_NAMES, type RunOptions } from '../config/options.js';
import { UsageError } from '../errors.js';

/** Inputs that only the Action has (reporting to GitHub). */
const reportingSchema = z.object({
  'github-token': z.string().default(''),
  /** Post/update the sticky PR comment. */
  comment: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Create a check run with the verdict as its conclusion. */
  'check-run': z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  'check-name': z.string().default('tracegate'),
});

export interface ActionInputs {
  run: RunOptions;
  githubToken: string;
  comment: boolean;
  checkRun: boolean;
  checkName: string;
}

/** Reads every input once, into one typed object; errors name the input and value. */
export function readInputs(): ActionInputs {
  const raw = Object.fromEntries(
    RUN_OPTION_NAMES.map((name) => [name, core.getInput(name) || undefined]),
  );
  const apiKey = raw['api-key'];
  if (apiKey) core.setSecret(apiKey);
  const token = core.getInput('github-token');
  if (token) core.setSecret(token);
  const run = parseRunOptions(raw);
  const reporting = reportingSchema.safeParse({
    'github-token': core.getInput('github-token') || undefined,
    comment: core.getInput('comment') || undefined,
    'check-run': core.getInput('check-run') || undefined,
    'check-name': core.getInput('check-name') || undefined,
  });
  if (!reporting.success) {
    throw new UsageError(
      reporting.error.issues.map((i) => `input ${i.path.join('.')}: ${i.message}`).join('; '),
    );
  }
  return {
    run,
    githubToken: reporting.data['github-token'],
    comment: reporting.data.comment,
    checkRun: reporting.data['check-run'],
    checkName: reporting.data['check-name'],
  };
}
