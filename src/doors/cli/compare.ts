import { forTerminal } from '../../app/commands/terminal.js';
import { compareCommand as compareFiles } from '../../app/commands/compare.js';
import { COMPARE_OPTION_NAMES, parseCompareOptions } from '../../app/config/options.js';
import { exitCodeFor, parseFlags, type Io } from './flags.js';

/**
 * `tracegate compare`: the gate on two results files — the same function
 * `run` and the Action call. Prints the verdict and the per-kind table,
 * writes OUT/comparison.json, exits by the verdict.
 */
export function compareCommand(args: string[], io: Io, usage: string): number {
  const options = parseCompareOptions(parseFlags(args, COMPARE_OPTION_NAMES, usage, 'compare'));
  const { comparison, text, file } = compareFiles(options);
  io.stdout(forTerminal(text));
  io.stderr(`Wrote ${file}`);
  return exitCodeFor(comparison.verdict, options['on-inconclusive']);
}
