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
import {
  compareRuns,
  DEFAULT_MIN_CLUSTERS,
  DEFAULT_MIN_ITEMS,
} from '../../src/stages/compare/gate.js';
import { plannedLooks } from '../../src/stages/compare/sequential.js';

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
  /** Share of first looks whose overall lower bound lies at or below the true change. */
  coverage: number;
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

/**
 * sfc32 (Chris Doty-Humphrey's small fast counter), seeded through splitmix-style
 * mixing: adds, xors and shifts only — `Math.*` calls are slow inside jest's VM
 * context, and this is the simulation's innermost loop.
 */
export function rng(seed: number): () => number {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 + seed;
  let c = 0xb7e15162 ^ (seed << 7);
  let d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** A well-mixed 32-bit seed of each replicate (a murmur3 finalizer). */
export function replicateSeed(seed: number, r: number): number {
  // Integer arithmetic throughout: a float product would lose the low bits (and repeat seeds).
  let h = (Math.imul(seed | 0, 0x9e3779b1) + r) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

const log = Math.log;

/** Beta(2, 3) as X/(X + Y) with X ~ Gamma(2), Y ~ Gamma(3): −log of products of uniforms. */
export function beta23(random: () => number): number {
  const x = -log((1 - random()) * (1 - random()));
  const y = -log((1 - random()) * (1 - random()) * (1 - random()));
  return x / (x + y);
}

const PROVENANCE: Provenance = {
  instances: 'sim',
  environments: 'sim',
  tracer: 'sim',
  prompt: 'sim',
  scorer: 'sim',
};

export function record(
  i: number,
  kinds: number,
  cluster: number,
  correct: boolean,
): InstanceRecord {
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

/**
 * One replicate: both runs' answers on `total` items (the selection, then the
 * top-up pool). Draws go item by item, each cluster's when its first item
 * comes, so the selection's answers do not depend on how large the pool is.
 */
function replicate(s: Scenario, total: number, random: () => number) {
  const kinds = s.kinds ?? 7;
  const size = s.clusterSize ?? 4;
  const scale = 1 - s.drop / 0.4;
  const base: InstanceRecord[] = [];
  const cand: InstanceRecord[] = [];
  let clusterSkill = 0;
  let shift = 0;
  for (let i = 0; i < total; i++) {
    const g = Math.floor(i / size);
    if (i % size === 0) {
      clusterSkill = beta23(random);
      shift = s.model === 'shifted' && random() < 0.3 ? (random() < 0.5 ? -1 : 1) : 0;
    }
    const p = random() < 0.5 ? clusterSkill : beta23(random);
    const dropped = s.dropKind === undefined || i % kinds === s.dropKind;
    let q = dropped ? p * scale : p;
    const u = random();
    let v = random();
    if (shift) q += shift * 0.5 * Math.min(q, 1 - q);
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
  const topUp = s.topUp ?? 0;
  const counts = { fail: 0, pass: 0, inconclusive: 0, toppedUp: 0, added: 0, covered: 0 };
  const kinds = s.kinds ?? 7;
  // The expected overall change: the drop, or its kind's share of the selection times it.
  const ofKind = Array.from({ length: s.items }, (_, i) => i % kinds === s.dropKind).filter(
    Boolean,
  );
  const truth = -s.drop * (s.dropKind === undefined ? 1 : ofKind.length / s.items);
  const [first, second] = plannedLooks(policy.alpha, s.items, topUp);
  for (let r = 0; r < replicates; r++) {
    // One stream per replicate: its selection's answers are the same with or without a pool.
    const { base, cand } = replicate(s, s.items + topUp, rng(replicateSeed(seed, r)));
    const baseline = { results: results(base), source: 'sim' };
    let c = compareRuns(results(cand.slice(0, s.items)), baseline, policy, first);
    if ((c.overall?.test?.lower ?? -Infinity) <= truth) counts.covered++;
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
    coverage: counts.covered / replicates,
  };
}
