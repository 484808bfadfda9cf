import { closest } from '../../util/closest.js';
import { commitShaSchema } from '../../contracts/history.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { OnInconclusive, Verdict } from '../../contracts/comparison.js';
import { ExitCode, messageOf, UsageError } from '../../errors.js';

/** What a command prints to and reads from (the process's, or a test's). */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export { closest };

/** `CMD --help` or `-h`: the command's usage goes to stdout and the exit code is 0. */
export class HelpRequest extends Error {
  constructor(readonly usage: string) {
    super(usage);
    this.name = 'HelpRequest';
  }
}

/**
 * One command's part of the whole usage text: its synopsis (the lines from
 * `  tracegate CMD` to the next command) and the option lines of the flags it
 * takes, under their section titles.
 */
export function commandUsage(usage: string, command: string, names: readonly string[]): string {
  const lines = usage.split('\n');
  const out: string[] = [];
  let keep = false;
  let section: string | undefined;
  for (const line of lines) {
    if (/^ {2}tracegate /.test(line)) keep = line.startsWith(`  tracegate ${command}`);
    else if (/^\S/.test(line)) {
      keep = false;
      section = line.endsWith(':') ? line : undefined;
    } else if (/^ {2}--/.test(line)) {
      keep = names.includes(/^ {2}--([\w-]+)/.exec(line)![1]!);
      if (keep && section) {
        out.push('', section);
        section = undefined;
      }
    } else if (!line.trim()) keep = false;
    if (keep) out.push(line);
  }
  // A command with a usage text of its own (generate) is shown it whole.
  if (!out.some((l) => l.startsWith(`  tracegate ${command}`))) return usage;
  return ['Usage:', ...out].join('\n');
}

/**
 * `--name value` flags of the given names. `--help` asks for the command's
 * usage (HelpRequest); an unknown flag is a usage error that names the
 * closest flag the command takes, and where its options are listed.
 */
export function parseFlags<N extends string>(
  args: string[],
  names: readonly N[],
  usage: string,
  command = 'run',
): Partial<Record<N, string>> {
  const { values, positionals } = parseFlagsAndArgs(args, names, usage, command);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  return values;
}

/** parseFlags for a command that also takes arguments (`merge DIR…`): the flags and the rest. */
export function parseFlagsAndArgs<N extends string>(
  args: string[],
  names: readonly N[],
  usage: string,
  command: string,
): { values: Partial<Record<N, string>>; positionals: string[] } {
  if (args.includes('--help') || args.includes('-h'))
    throw new HelpRequest(commandUsage(usage, command, names));
  for (const arg of args) {
    const flag = /^--([^=]+)/.exec(arg)?.[1];
    if (flag === undefined || (names as readonly string[]).includes(flag)) continue;
    const near = closest(flag, names);
    throw new UsageError(
      `unknown option --${flag} for tracegate ${command}` +
        (near ? ` (did you mean --${near}?)` : '') +
        `; \`tracegate help ${command}\` lists its options`,
    );
  }
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Partial<Record<N, string>>, positionals };
  } catch (error) {
    throw error instanceof UsageError
      ? error
      : new UsageError(
          `${messageOf(error)}; \`tracegate help ${command}\` lists the options of tracegate ${command}`,
        );
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

/** CLI-only flags: the commit a run is recorded at (the Action takes it from the event). */
export const AT_COMMIT = ['commit', 'parent'] as const;

export function atCommit(
  commit?: string,
  parent?: string,
): { commit: string; parent?: string } | undefined {
  for (const [flag, value] of [
    ['--commit', commit],
    ['--parent', parent],
  ] as const)
    if (value !== undefined && !commitShaSchema.safeParse(value).success)
      throw new UsageError(`${flag} must be a lowercase commit sha, got "${value}"`);
  if (parent && !commit) throw new UsageError('--parent needs --commit (the commit of this run)');
  return commit ? { commit, ...(parent ? { parent } : {}) } : undefined;
}

/** Commits the trend in report.md shows when a history is given (the Action's default). */
export const CLI_TREND_COMMITS = 10;

/**
 * A small command's flags (stats, audit, score): node's strict parser, its
 * complaint turned into a usage error that ends with the command's usage.
 */
export function parseCommandArgs<const T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  // `--help` anywhere asks for the usage, as with every other command (never a parser error).
  if (config.args?.some((a) => a === '--help' || a === '-h')) throw new HelpRequest(usage);
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
}
