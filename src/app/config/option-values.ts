// The values an option takes, each a zod schema whose error names the option and says what it
// must be: lists, bounded numbers, JSON objects, stop strings, prompt budgets.
import { z } from 'zod';
import { parseBudget } from '../../stages/prompt/budget.js';

export const list = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .optional();

export function int(name: string, min: number, max: number) {
  return z.string().transform((s, ctx) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({
        code: 'custom',
        message: `--${name} must be an integer in ${min}..${max}, got "${s}"`,
      });
      return z.NEVER;
    }
    return n;
  });
}

export function num(name: string, min: number, max: number) {
  return z.string().transform((s, ctx) => {
    const n = Number(s);
    if (s.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      ctx.addIssue({
        code: 'custom',
        message: `--${name} must be a number in ${min}..${max}, got "${s}"`,
      });
      return z.NEVER;
    }
    return n;
  });
}

/** A number in (0, max]: zero is not a level or a margin (nothing could ever pass or fail). */
export function positive(name: string, max: number) {
  return z.string().transform((s, ctx) => {
    const n = Number(s);
    if (s.trim() === '' || !Number.isFinite(n) || n <= 0 || n > max) {
      ctx.addIssue({
        code: 'custom',
        message: `--${name} must be a number above 0 and at most ${max}, got "${s}"`,
      });
      return z.NEVER;
    }
    return n;
  });
}

/** A JSON object (server-specific request fields). */
export const jsonObject = z.string().transform((s, ctx) => {
  try {
    const value: unknown = JSON.parse(s);
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  ctx.addIssue({
    code: 'custom',
    message: `--extra-body must be a JSON object, e.g. {"top_k": 20}, got ${JSON.stringify(s)}`,
  });
  return z.NEVER;
});

/** Stop sequences: a JSON array of strings, or one plain string. */
export const stopList = z.string().transform((s, ctx) => {
  if (!s.trimStart().startsWith('[')) return [s];
  try {
    const value: unknown = JSON.parse(s);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  } catch {
    // reported below
  }
  ctx.addIssue({
    code: 'custom',
    message: `--stop must be a string or a JSON array of strings, got ${JSON.stringify(s)}`,
  });
  return z.NEVER;
});

export const budget = z.string().transform((s, ctx) => {
  const parsed = parseBudget(s);
  if (parsed) return parsed;
  ctx.addIssue({
    code: 'custom',
    message: `--context-budget must be a positive count of chars or tokens, e.g. 48000 or 12000t, got "${s}"`,
  });
  return z.NEVER;
});

/** What to harvest and where: the options `harvest` and `run` share. */
