/**
 * The tail every verdict goes through — the run's (app/pipeline.ts) and the merge's
 * (app/run-gate.ts mergeGate): the baseline resolved (unavailable is a verdict, never a pass),
 * the results compared with it under the policy, an accepted failure marked, the one report
 * rendered. One function, so a run and a merge of its shards cannot decide differently.
 */
import type { Baseline, BaselineSource } from '../contracts/ports.js';
import type { Results } from '../contracts/results.js';
import { BaselineUnavailableError } from '../errors.js';
import { compareRuns, type Comparison, type GatePolicy } from '../stages/compare/gate.js';
import type { Look } from '../stages/compare/sequential.js';
import { renderReport, type ReportContext } from '../stages/report/markdown.js';

/** The baseline a verdict is decided against: none, one, or one that should exist and could not be read. */
export interface ResolvedBaseline {
  baseline?: Baseline;
  /** Why the baseline, which should exist, could not be looked up (the verdict: baseline-unavailable). */
  unavailable?: string;
}

/** Resolves the baseline; an unavailable one is said once and becomes part of the verdict. */
export async function resolveBaseline(
  source: BaselineSource | undefined,
  warn: (message: string) => void,
): Promise<ResolvedBaseline> {
  let unavailable: string | undefined;
  const baseline = await source?.resolve().catch((error: unknown) => {
    if (!(error instanceof BaselineUnavailableError)) throw error;
    unavailable = error.detail;
    warn(`tracegate: ${error.message}; the verdict is baseline-unavailable (never a pass).`);
    return undefined;
  });
  return { ...(baseline ? { baseline } : {}), ...(unavailable ? { unavailable } : {}) };
}

export interface Decision {
  comparison: Comparison;
  report: string;
}

/**
 * compare → accept → report. Sets `results.comparison` (and `results.accepted` when a failure
 * carries the override label), and renders the report from them.
 */
export function decide(
  results: Results,
  against: ResolvedBaseline,
  gate: { policy: GatePolicy; accept?: { label: string; note?: string } },
  look: Look,
  context: (results: Results) => ReportContext,
  topUp?: Comparison['topUp'],
): Decision {
  const comparison = compareRuns(
    results,
    against.baseline,
    gate.policy,
    look,
    topUp,
    against.unavailable,
  );
  results.comparison = comparison;
  if (comparison.verdict === 'fail' && gate.accept) results.accepted = gate.accept;
  return { comparison, report: renderReport(results, comparison, context(results)) };
}
