/**
 * The seeded model of two runs behind every claim about the gate's false
 * blocks and power (docs/gate.md): the CI test runs a few hundred replicates,
 * scripts/bench-gate.mjs the full table. Pure: same scenario + seed, same rates.
 *
 * Items: `items` per run over `kinds` kinds (item i has kind i mod kinds), in
 * clusters of `clusterSize` consecutive items (a test run). Per-item skill is
 * Beta(2, 3) (mean 0.4); items of a cluster share their cluster's skill with
 * probability ½, so clusters are alike. The baseline answers item i right when
 * u_i < p_i. The candidate's skill is q_i = p_i·(1 − drop/0.4) — a drop of
 * `drop` in expected accuracy — on every item, or on one kind's only.
 *
 * - `independent`: the candidate draws afresh (v_i < q_i): an honest re-run.
 * - `neighbouring`: it reuses the baseline's u_i on 90% of items (a neighbouring
 *   checkpoint keeps most answers), draws afresh on the rest.
 * - `shifted`: as neighbouring, but 30% of clusters changed as a whole: their
 *   items' skill moves by ±½·min(q, 1 − q) (one sign per cluster, mean zero) and
 *   is drawn afresh — a checkpoint better at some packages and worse at others.
 */
import type { GatePolicy } from '../../src/contracts/comparison.js';
import { QUESTION_KINDS } from '../../src/contracts/kinds.js';
import type { InstanceRecord, Provenance, Results } from '../../src/contracts/results.js';
import { compareRuns, DEFAULT_MIN_CLUSTERS, DEFAULT_MIN_ITEMS } from '../../src/compare/gate.js';
import { plannedLooks } from '../../src/compare/sequential.js';

export type SimModel = 'independent' | 'neighbouring' | 'shifted';

export interface Scenario {
  items: number;
  model: SimModel;
  /** Drop in expected accuracy (0.1 = ten points). */
  drop: number;
  /** Apply the drop to this kind's items only (index into the kinds). */
  dropKind?: number;
  kinds?: number;
  clusterSize?: number;
  /** Paired items a top-up may add (0: no top-up). */
  topUp?: number;
}

export interface Rates {
  fail: number;
  pass: number;
  inconclusive: number;
  /** Share of replicates that took a second look, and mean items added per replicate. */
  toppedUp: number;
  meanAdded: number;
}

export const SIM_POLICY: GatePolicy = {
  minDrop: 0.05,
  minGain: 0.05,
  alpha: 0.05,
  clusterBy: 'test',
  gate: 'overall',
  maxExcluded: 0.05,
  minItems: DEFAULT_MIN_ITEMS,
  minClusters: DEFAULT_MIN_CLUSTERS,
};

/** mulberry32: small, fast, seeded; plenty for simulation. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Beta(2, 3) as X/(X + Y) with X ~ Gamma(2), Y ~ Gamma(3) (sums of exponentials). */
function beta23(random: () => number): number {
  const e = () => -Math.log(1 - random());
  const x = e() + e();
  const y = e() + e() + e();
  return x / (x + y);
}

const PROVENANCE: Provenance = {
  instances: 'sim',
  environments: 'sim',
  tracer: 'sim',
  prompt: 'sim',
  scorer: 'sim',
};

function record(i: number, kinds: number, cluster: number, correct: boolean): InstanceRecord {
  return {
    id: `i${i}`,
    kind: QUESTION_KINDS[i % kinds]!,
    scored: true,
    correct,
    error: null,
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 0,
    retries: 0,
    cluster: { test: `t${cluster}`, package: `p${cluster % 3}` },
    oracleDigest: 'same',
  };
}

/** One replicate: both runs' answers on `total` items (the selection, then the top-up pool). */
function replicate(s: Scenario, total: number, random: () => number) {
  const kinds = s.kinds ?? 7;
  const size = s.clusterSize ?? 4;
  const clusters = Math.ceil(total / size);
  const clusterSkill = Array.from({ length: clusters }, () => beta23(random));
  const changed = Array.from({ length: clusters }, () =>
    s.model === 'shifted' && random() < 0.3 ? (random() < 0.5 ? -1 : 1) : 0,
  );
  const scale = 1 - s.drop / 0.4;
  const base: InstanceRecord[] = [];
  const cand: InstanceRecord[] = [];
  for (let i = 0; i < total; i++) {
    const g = Math.floor(i / size);
    const p = random() < 0.5 ? clusterSkill[g]! : beta23(random);
    const dropped = s.dropKind === undefined || i % kinds === s.dropKind;
    let q = dropped ? p * scale : p;
    const u = random();
    let v = random();
    if (changed[g]) q += changed[g]! * 0.5 * Math.min(q, 1 - q);
    else if (s.model !== 'independent' && random() < 0.9) v = u;
    base.push(record(i, kinds, g, u < p));
    cand.push(record(i, kinds, g, v < q));
  }
  return { base, cand };
}

function results(instances: InstanceRecord[]): Results {
  // Only what the gate reads of a results file.
  return { instances, provenance: PROVENANCE, model: { name: 'sim' } } as unknown as Results;
}

/** Runs `replicates` seeded replicates of a scenario through the real gate; returns verdict rates. */
export function simulate(
  s: Scenario,
  replicates: number,
  seed: number,
  policy: GatePolicy = SIM_POLICY,
): Rates {
  const random = rng(seed);
  const topUp = s.topUp ?? 0;
  const counts = { fail: 0, pass: 0, inconclusive: 0, toppedUp: 0, added: 0 };
  const [first, second] = plannedLooks(policy.alpha, s.items, topUp);
  for (let r = 0; r < replicates; r++) {
    const { base, cand } = replicate(s, s.items + topUp, random);
    const baseline = { results: results(base), source: 'sim' };
    let c = compareRuns(results(cand.slice(0, s.items)), baseline, policy, first);
    if (c.verdict === 'inconclusive' && second) {
      counts.toppedUp++;
      counts.added += topUp;
      c = compareRuns(results(cand), baseline, policy, second);
    }
    if (c.verdict === 'fail') counts.fail++;
    else if (c.verdict === 'pass') counts.pass++;
    else counts.inconclusive++;
  }
  return {
    fail: counts.fail / replicates,
    pass: counts.pass / replicates,
    inconclusive: counts.inconclusive / replicates,
    toppedUp: counts.toppedUp / replicates,
    meanAdded: counts.added / replicates,
  };
}
