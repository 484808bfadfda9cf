// `tracegate merge DIR...`: the shards of a matrix merged into the one run they are parts of,
// then compared, reported and recorded once (app/run-gate.ts mergeGate).
import { forTerminal } from '../../app/commands/terminal.js';
import type { Logger } from '../../app/config/assemble.js';
import { GATE_OPTION_NAMES, parseRunOptions } from '../../app/config/options.js';
import { mergeGate } from '../../app/run-gate.js';
import { localCommitGraph } from '../../app/commands/local.js';
import { UsageError } from '../../errors.js';
import {
  AT_COMMIT,
  atCommit,
  CLI_TREND_COMMITS,
  exitCodeFor,
  parseFlagsAndArgs,
  type Io,
} from './flags.js';

/** What `merge` takes: where the run goes and how it is judged (the model is the shards'). */
export const MERGE_FLAGS = [
  'out',
  'history',
  'baseline',
  'name',
  'retention',
  'instances',
  'scoring',
  'world-factor',
  ...GATE_OPTION_NAMES,
] as const;

export async function mergeCommand(
  args: string[],
  io: Io,
  logger: Logger,
  usage: string,
): Promise<number> {
  const { values, positionals } = parseFlagsAndArgs(
    args,
    [...MERGE_FLAGS, ...AT_COMMIT],
    usage,
    'merge',
  );
  if (!positionals.length)
    throw new UsageError(
      "merge needs the shards' output directories: tracegate merge DIR... (or one directory holding them)",
    );
  const { commit, parent, ...flags } = values;
  // The model and endpoint are the shards' (results.json holds them): none is asked here.
  const options = parseRunOptions({ ...flags, endpoint: 'http://shards.invalid', model: 'shards' });
  const at = atCommit(commit, parent);
  const outcome = await mergeGate(
    {
      options,
      dirs: positionals,
      ...(at ? { event: { kind: 'push' as const, ...at, sha: at.commit }, record: at } : {}),
      trend: { last: CLI_TREND_COMMITS },
      howToRecord: 'a merge with --history DIR --commit SHA records one',
    },
    { logger, commitGraph: localCommitGraph() },
  );
  io.stdout(forTerminal(outcome.report));
  return exitCodeFor(outcome.comparison.verdict, options['on-inconclusive']);
}
