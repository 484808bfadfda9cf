import type {
  Comparison,
  GatePolicy,
  InconclusiveCause,
  KindRow,
  Row,
} from '../../contracts/comparison.js';
import type { Results } from '../../contracts/results.js';
import { describeVerdict } from './describe.js';
import { pairRuns } from './pairing.js';
import { selectionDifferences } from './selection.js';
import { assertComparable, provenanceNotes } from './provenance.js';
import type { Look } from './sequential.js';
import { decideRows, estimate } from './rows.js';
import { formatShift } from './format.js';
import { groupRows } from './groups.js';

export type { Comparison, GatePolicy } from '../../contracts/comparison.js';

/** Below these, a row is `too few items`: a cluster-robust error needs items and clusters. */
export const DEFAULT_MIN_ITEMS = 10;
export const DEFAULT_MIN_CLUSTERS = 5;

/** The candidate's side: its records and provenance (the baseline's is a whole results file). */
export type CandidateRun = Pick<Results, 'instances' | 'incomplete' | 'provenance' | 'selection'> &
  Partial<Pick<Results, 'merged'>>;

/** A baseline to compare with and where it came from (`file base.json`, a history entry…). */
export interface BaselineRun {
  results: Results;
  source: string;
}

/** A drop of min-drop is excluded when the row's lower bound lies above −min-drop. */
const excludesDrop = (r: Row, policy: GatePolicy): boolean =>
  r.test !== undefined && r.test.lower > -policy.minDrop;

/**
 * The gate on two runs: pair, estimate overall and per kind, decide.
 *
 * - `fail`: some row (overall or a kind) dropped significantly — Holm over the
 *   tested rows at this look's level — and by at least min-drop as observed;
 * - `pass`: not `fail`, the overall lower bound excludes a drop of min-drop
 *   (with `gate: per-kind`, every kind's too), and no data is missing beyond
 *   what the policy allows;
 * - `inconclusive`: anything else, with its causes;
 * - `no-baseline`: nothing to compare with;
 * - `baseline-unavailable`: a baseline should exist but could not be looked up.
 *
 * Throws UsageError when the runs are not comparable (scorer, prompt version)
 * or a run holds two records of one instance.
 */
export function compareRuns(
  candidate: CandidateRun,
  baseline: BaselineRun | undefined,
  policy: GatePolicy,
  look: Look = { index: 1, of: 1, alpha: policy.alpha },
  topUp?: Comparison['topUp'],
  /** Why the baseline, which should exist, could not be looked up. */
  unavailable?: string,
): Comparison {
  const lookInfo = { index: look.index, of: look.of, alpha: look.alpha };
  if (!baseline) {
    const none = {
      verdict: unavailable ? ('baseline-unavailable' as const) : ('no-baseline' as const),
      causes: [],
      policy,
      look: lookInfo,
      kinds: [],
      notes: [],
      ...(unavailable ? { unavailable } : {}),
    };
    return { ...none, summary: describeVerdict(none) };
  }
  const base = baseline.results;
  assertComparable(candidate.provenance, base.provenance, baseline.source);
  const { pairs, pairing: paired } = pairRuns(
    { instances: candidate.instances, missing: candidate.incomplete?.missing, label: 'this run' },
    { instances: base.instances, missing: base.incomplete?.missing, label: baseline.source },
    policy.clusterBy,
  );
  const differs = selectionDifferences(candidate.selection, base.selection);
  const pairing = differs.length ? { ...paired, selectionDiffers: differs } : paired;
  const alpha = look.alpha;
  const estimatedOverall = estimate(pairs, policy, alpha);
  const kindNames = [...new Set([...pairs.map((p) => p.kind), ...pairing.missingKinds])].sort();
  const estimatedKinds = kindNames.map((kind) =>
    estimate(
      pairs.filter((p) => p.kind === kind),
      policy,
      alpha,
    ),
  );
  decideRows([estimatedOverall, ...estimatedKinds], policy, alpha);
  const overall = estimatedOverall.row;
  const kinds: KindRow[] = estimatedKinds.map((e, i) => ({ kind: kindNames[i]!, ...e.row }));
  const groups = groupRows(pairs, policy, alpha);
  const format = formatShift(
    pairs.map((p) => p.id),
    candidate.instances,
    base.instances,
    alpha,
  );

  const rows: Row[] = [overall, ...kinds];
  const causes: InconclusiveCause[] = [];
  const failed = rows.some((r) => r.status === 'regressed');
  if (!failed) {
    if (!pairing.intersection) causes.push('no overlap');
    else if (overall.status === 'too few items') causes.push('too few items');
    if (pairing.excludedShare > policy.maxExcluded) causes.push('too many excluded');
    if (
      pairing.missingKinds.length ||
      (policy.gate === 'per-kind' && pairing.baselineOnlyKinds.length)
    )
      causes.push('kind missing');
    if (policy.gate === 'per-kind' && kinds.some((k) => k.status === 'too few items'))
      causes.push('kind too few items');
    const undecided =
      (overall.status !== 'too few items' && !excludesDrop(overall, policy)) ||
      (policy.gate === 'per-kind' &&
        kinds.some((k) => k.status !== 'too few items' && !excludesDrop(k, policy)));
    if (undecided) causes.push('drop not excluded');
  }
  // A merge missing a shard is at best inconclusive, however well the shards it has did.
  const missingShards = candidate.merged?.missing ?? [];
  if (!failed && missingShards.length) causes.push('shard missing');
  const verdict = failed ? 'fail' : causes.length ? 'inconclusive' : 'pass';
  const comparison: Omit<Comparison, 'summary'> = {
    verdict,
    causes,
    policy,
    look: lookInfo,
    overall,
    kinds,
    ...(groups.length ? { groups } : {}),
    ...(format ? { format } : {}),
    pairing,
    ...(topUp ? { topUp } : {}),
    ...(candidate.merged
      ? { shards: { count: candidate.merged.count, missing: missingShards } }
      : {}),
    flipped: {
      lost: pairs.filter((p) => p.candidate < p.baseline).map((p) => p.id),
      gained: pairs.filter((p) => p.candidate > p.baseline).map((p) => p.id),
    },
    notes: provenanceNotes(candidate.provenance, base.provenance),
    baseline: {
      source: baseline.source,
      model: base.model.name,
      ...(base.model.revision ? { revision: base.model.revision } : {}),
      ...(base.commit ? { commit: base.commit } : {}),
    },
  };
  return { ...comparison, summary: describeVerdict(comparison) };
}
