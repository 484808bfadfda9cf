import { parseArgs } from 'node:util';
import type { OnInconclusive, Verdict } from '../../contracts/comparison.js';
import { ExitCode, messageOf, UsageError } from '../../errors.js';

/** What a command prints to and reads from (the process's, or a test's). */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** `--name value` flags of the given names; anything else is a usage error showing `usage`. */
export function parseFlags<N extends string>(
  args: string[],
  names: readonly N[],
  usage: string,
): Partial<Record<N, string>> {
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return values as Partial<Record<N, string>>;
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError(`${messageOf(error)}\n\n${usage}`);
  }
}

/**
 * The exit code of a verdict: 0 pass (and no baseline), 1 fail, and for
 * inconclusive what `--on-inconclusive` says — 4 by default (neutral), or 0 / 1; a baseline
 * that could not be looked up 3 (1 with `--on-inconclusive fail`), never 0.
 */
export function exitCodeFor(verdict: Verdict, onInconclusive: OnInconclusive): number {
  switch (verdict) {
    case 'pass':
    case 'no-baseline':
      return ExitCode.Pass;
    case 'fail':
      return ExitCode.GateFailed;
    case 'baseline-unavailable':
      // Never a pass; `fail` makes it a failure, anything else says what failed (3).
      return onInconclusive === 'fail' ? ExitCode.GateFailed : ExitCode.Infrastructure;
    case 'inconclusive':
      return onInconclusive === 'pass'
        ? ExitCode.Pass
        : onInconclusive === 'fail'
          ? ExitCode.GateFailed
          : ExitCode.Inconclusive;
  }
}
