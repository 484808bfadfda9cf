/**
 * The seeded model behind the memorisation flag's claims (docs/generate.md has
 * the table from scripts/bench-memorisation.mjs; the CI test runs a few hundred
 * replicates). `pairs` originals, each with its variant, in clusters of
 * `clusterSize` (a test). Per-item skill p_i ~ Beta(2, 3), shared by a
 * cluster's items with probability ½ (as in gate-sim.ts).
 *
 * - `aa`: an honest model: original and variant each answered right with
 *   probability p_i, independently (the variant is as hard as its original).
 * - `memorised`: on a share `memorised` of the originals the model recalls the
 *   published answer (right), and answers the rest and every variant with p_i.
 * - `recall-only`: the model answers every original right and every variant
 *   with its original's answer: wrong, as variants are kept only when the
 *   original's answer fails them.
 */
import type { GatePolicy } from '../../src/contracts/comparison.js';
import type { InstanceRecord } from '../../src/contracts/results.js';
import { memorisationOf } from '../../src/stages/compare/memorisation.js';
import { beta23, record, replicateSeed, rng, SIM_POLICY } from './gate-sim.js';

export interface MemoScenario {
  pairs: number;
  model: 'aa' | 'memorised' | 'recall-only';
  memorised?: number;
  clusterSize?: number;
}

/** Share of replicates flagged, and the mean original − variant difference. */
export function simulateMemorisation(
  s: MemoScenario,
  replicates: number,
  seed: number,
  policy: GatePolicy = SIM_POLICY,
): { flagged: number; meanDifference: number } {
  let flagged = 0;
  let difference = 0;
  const size = s.clusterSize ?? 4;
  for (let r = 0; r < replicates; r++) {
    const random = rng(replicateSeed(seed, r));
    const records: InstanceRecord[] = [];
    let shared = 0;
    for (let i = 0; i < s.pairs; i++) {
      const cluster = Math.floor(i / size);
      if (i % size === 0) shared = beta23(random);
      const p = random() < 0.5 ? shared : beta23(random);
      const recalled =
        s.model === 'recall-only' || (s.model === 'memorised' && random() < (s.memorised ?? 0));
      const original = recalled || random() < p;
      const variant = s.model === 'recall-only' ? false : random() < p;
      const o = record(i, 7, cluster, original);
      records.push(o, { ...record(i, 7, cluster, variant), id: `${o.id}@v1` });
    }
    const m = memorisationOf(records, policy);
    if (m?.flagged) flagged++;
    difference += m?.difference ?? 0;
  }
  return { flagged: flagged / replicates, meanDifference: difference / replicates };
}
