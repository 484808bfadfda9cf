import { join } from 'node:path';
import type { Comparison } from '../../contracts/comparison.js';
import { writeFileAtomic } from '../../adapters/stores/atomic.js';
import { readResults } from '../../adapters/stores/results-dir.js';
import { compareRuns } from '../../stages/compare/gate.js';
import {
  comparisonDetails,
  comparisonTable,
  policyLine,
  verdictLine,
} from '../../stages/report/comparison.js';
import { toGatePolicy } from '../config/assemble.js';
import type { CompareOptions } from '../config/options.js';

/**
 * `tracegate compare`: the gate on two results files (the function `run` and the Action call);
 * writes OUT/comparison.json, gives the comparison and its text (verdict, per-kind table, policy).
 */
export function compareCommand(options: CompareOptions): {
  comparison: Comparison;
  text: string;
  file: string;
} {
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
  const text = [
    verdictLine(comparison),
    '',
    ...comparisonTable(comparison, { overall: summary, byKind: summary.byKind }),
    ...comparisonDetails(comparison),
    '',
    policyLine(comparison),
  ].join('\n');
  return { comparison, text, file };
}
