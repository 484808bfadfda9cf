import { join } from 'node:path';
import { compareRuns } from '../../stages/compare/gate.js';
import { toGatePolicy } from '../../app/config/assemble.js';
import { COMPARE_OPTION_NAMES, parseCompareOptions } from '../../app/config/options.js';
import {
  comparisonDetails,
  comparisonTable,
  policyLine,
  verdictLine,
} from '../../stages/report/comparison.js';
import { writeFileAtomic } from '../../adapters/stores/atomic.js';
import { readResults } from '../../adapters/stores/results-dir.js';
import { exitCodeFor, parseFlags, type Io } from './flags.js';

/**
 * `tracegate compare`: the gate on two results files — the same function
 * `run` and the Action call. Prints the verdict and the per-kind table,
 * writes OUT/comparison.json, exits by the verdict.
 */
export function compareCommand(args: string[], io: Io, usage: string): number {
  const options = parseCompareOptions(parseFlags(args, COMPARE_OPTION_NAMES, usage, 'compare'));
  const baseline = readResults(options.baseline, '--baseline');
  const candidate = readResults(options.candidate, '--candidate');
  const comparison = compareRuns(
    candidate,
    { results: baseline, source: `file ${options.baseline}` },
    toGatePolicy(options),
  );
  const file = join(options.out, 'comparison.json');
  writeFileAtomic(file, JSON.stringify(comparison, null, 2) + '\n');
  const { summary } = candidate;
  io.stdout(
    [
      verdictLine(comparison),
      '',
      ...comparisonTable(comparison, { overall: summary, byKind: summary.byKind }),
      ...comparisonDetails(comparison),
      '',
      policyLine(comparison),
    ].join('\n'),
  );
  io.stderr(`Wrote ${file}`);
  return exitCodeFor(comparison.verdict, options['on-inconclusive']);
}
