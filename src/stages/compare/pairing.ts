import type { ClusterBy, ExclusionReason, Pairing } from '../../contracts/comparison.js';
import { INFRASTRUCTURE_ERRORS, type InstanceRecord } from '../../contracts/results.js';
import { UsageError } from '../../errors.js';
import type { PairedItem } from './paired.js';

/** One run's side of a comparison: its records and the selected ids it has no record of. */
export interface RunSide {
  instances: readonly InstanceRecord[];
  /** `incomplete.missing`: selected, never answered (the run stopped). */
  missing?: readonly string[];
  /** Names the run in messages, e.g. `--baseline base.json`. */
  label: string;
}

export interface Pair extends PairedItem {
  id: string;
  kind: string;
}

/** A record's success rate: correct samples of k (repeated measures), or 0/1. */
export function successRate(r: InstanceRecord): number {
  if (r.samples !== undefined && r.samples > 1 && r.samplesCorrect !== undefined)
    return r.samplesCorrect / r.samples;
  return r.correct ? 1 : 0;
}

/** True when the record's failure is not the model's answer (see INFRASTRUCTURE_ERRORS). */
export function isInfrastructure(r: InstanceRecord): boolean {
  return r.infrastructure ?? (r.error !== null && INFRASTRUCTURE_ERRORS.has(r.error));
}

/** A baseline record a top-up can pair with: scored, with an oracle digest, not an infrastructure failure. */
export function pairable(r: InstanceRecord): boolean {
  return r.scored && !!r.oracleDigest && !isInfrastructure(r);
}

export function clusterOf(r: InstanceRecord, by: ClusterBy): string {
  if (by === 'none' || !r.cluster) return `item:${r.id}`;
  return by === 'test' ? `test:${r.cluster.test}` : `package:${r.cluster.package}`;
}

/** Throws UsageError naming the run when it holds two records of one instance. */
export function assertUniqueIds(side: Pick<RunSide, 'instances' | 'label'>): void {
  index(side);
}

function index(side: Pick<RunSide, 'instances' | 'label'>): Map<string, InstanceRecord> {
  const byId = new Map<string, InstanceRecord>();
  for (const r of side.instances) {
    if (byId.has(r.id))
      throw new UsageError(
        `${side.label}: instance "${r.id}" has two records; a results file holds one per instance`,
      );
    byId.set(r.id, r);
  }
  return byId;
}

function exclusion(
  cand: InstanceRecord | undefined,
  base: InstanceRecord | undefined,
): ExclusionReason | undefined {
  if (!cand) return 'not answered: this run is incomplete';
  if (!base) return 'not answered: the baseline is incomplete';
  if (!cand.scored) return 'harvest failed in this run';
  if (!base.scored) return 'harvest failed in the baseline';
  if (isInfrastructure(cand)) return 'no answer in this run (infrastructure)';
  if (isInfrastructure(base)) return 'no answer in the baseline (infrastructure)';
  if (!cand.oracleDigest || !base.oracleDigest) return 'oracle digest missing';
  if (cand.oracleDigest !== base.oracleDigest || cand.kind !== base.kind) return 'oracle changed';
  return undefined;
}

/**
 * Pairs the items both runs hold. An item is paired when both scored it with
 * the same oracle digest and neither failed for infrastructure; every other
 * item both runs hold is excluded with its reason. Items of one run only are
 * counted, not excluded: the comparison is on the intersection, and says so.
 */
export function pairRuns(
  candidate: RunSide,
  baseline: RunSide,
  clusterBy: ClusterBy,
): { pairs: Pair[]; pairing: Pairing } {
  const cand = index(candidate);
  const base = index(baseline);
  const candIds = new Set([...cand.keys(), ...(candidate.missing ?? [])]);
  const baseIds = new Set([...base.keys(), ...(baseline.missing ?? [])]);
  // In the candidate's order: its records, then its missing ids.
  const shared = [...candIds].filter((id) => baseIds.has(id));
  const pairs: Pair[] = [];
  const excluded: Pairing['excluded'] = [];
  for (const id of shared) {
    const c = cand.get(id);
    const b = base.get(id);
    const reason = exclusion(c, b);
    const kind = c?.kind ?? b?.kind;
    if (reason) excluded.push({ id, ...(kind ? { kind } : {}), reason });
    else
      pairs.push({
        id,
        kind: c!.kind,
        cluster: clusterOf(c!.cluster ? c! : b!, clusterBy),
        baseline: successRate(b!),
        candidate: successRate(c!),
      });
  }
  const sharedKinds = new Set([
    ...pairs.map((p) => p.kind),
    ...excluded.flatMap((e) => e.kind ?? []),
  ]);
  const pairedKinds = new Set(pairs.map((p) => p.kind));
  const candKinds = new Set([...cand.values()].map((r) => r.kind));
  const baselineOnlyKinds = [
    ...new Set(
      [...base.values()]
        .filter((r) => !candIds.has(r.id) && !candKinds.has(r.kind) && !sharedKinds.has(r.kind))
        .map((r) => r.kind),
    ),
  ].sort();
  return {
    pairs,
    pairing: {
      intersection: shared.length,
      paired: pairs.length,
      excluded,
      excludedShare: shared.length ? excluded.length / shared.length : 0,
      candidateOnly: [...candIds].filter((id) => !baseIds.has(id)).length,
      baselineOnly: [...baseIds].filter((id) => !candIds.has(id)).length,
      baselineOnlyKinds,
      missingKinds: [...sharedKinds].filter((k) => !pairedKinds.has(k)).sort(),
    },
  };
}
