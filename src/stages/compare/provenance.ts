import type { Provenance } from '../../contracts/results.js';
import { UsageError } from '../../errors.js';
import { canonicalJson, sha256 } from '../../util/hash.js';

/** sha256 over the instances' ids and content hashes, in id order. */
export function instanceSetDigest(items: readonly { id: string; contentHash: string }[]): string {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sha256(canonicalJson(sorted.map((i) => [i.id, i.contentHash])));
}

/** sha256 over the effective environments' names and digests, in name order. */
export function environmentsDigest(envs: readonly { name: string; digest: string }[]): string {
  const sorted = [...envs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sha256(canonicalJson(sorted.map((e) => [e.name, e.digest])));
}

/**
 * Refuses to compare runs whose scores mean different things: another scorer,
 * or another prompt version. The message names what differs and both values.
 */
export function assertComparable(
  candidate: Pick<Provenance, 'scorer' | 'prompt'>,
  baseline: Pick<Provenance, 'scorer' | 'prompt'>,
  baselineLabel: string,
): void {
  const differ: string[] = [];
  if (candidate.scorer !== baseline.scorer)
    differ.push(`scorer ${baseline.scorer} (baseline) vs ${candidate.scorer} (this run)`);
  if (candidate.prompt !== baseline.prompt)
    differ.push(`prompt version ${baseline.prompt} (baseline) vs ${candidate.prompt} (this run)`);
  if (differ.length)
    throw new UsageError(
      `${baselineLabel} cannot be compared with this run: ${differ.join('; ')}. ` +
        'Scores under another scorer or prompt are not the same measurement; re-run the baseline with this version.',
    );
}

/** What differs without making the runs incomparable: said in the report. */
export function provenanceNotes(candidate: Provenance, baseline: Provenance): string[] {
  const notes: string[] = [];
  const short = (d: string) => d.slice(0, 12);
  if (candidate.instances !== baseline.instances)
    notes.push('the instance sets differ: the comparison is on the items both runs hold');
  if (candidate.environments !== baseline.environments)
    notes.push(
      `the environments differ (${short(baseline.environments)} → ${short(candidate.environments)}): items whose oracle changed are not paired`,
    );
  if (candidate.tracer !== baseline.tracer)
    notes.push(
      `the tracer differs (${short(baseline.tracer)} → ${short(candidate.tracer)}): items whose oracle changed are not paired`,
    );
  return notes;
}
