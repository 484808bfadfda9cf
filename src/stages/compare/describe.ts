import type { Comparison, InconclusiveCause, Row } from '../../contracts/comparison.js';

/** A change in percentage points, signed: `−3.2 pp`, `+1.0 pp`, `±0.0 pp`. */
export function pp(x: number): string {
  const r = Math.round(x * 1000) / 10;
  return `${r > 0 ? '+' : r < 0 ? '−' : '±'}${Math.abs(r).toFixed(1)} pp`;
}

/** A share as a percentage: `12.5%`. */
export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** A confidence level from a one-sided alpha: `95%`, `96.9%`. */
export const level = (alpha: number): string =>
  `${Number(((1 - alpha) * 100).toFixed(1)).toString()}%`;

/** `p = 0.0165`, `p < 0.0001`: a p-value as a sentence says it. */
const p = (x: number | undefined): string =>
  x === undefined ? 'p —' : x < 0.0001 ? 'p < 0.0001' : `p = ${x.toFixed(4)}`;

const CAUSE: Record<InconclusiveCause, (c: Omit<Comparison, 'summary'>) => string> = {
  'no overlap': () => 'the two runs share no instance',
  'too few items': (c) =>
    `only ${c.overall?.paired ?? 0} paired item(s) in ${c.overall?.clusters ?? 0} cluster(s) ` +
    `(the gate needs ${c.policy.minItems} in ${c.policy.minClusters})`,
  'too many excluded': (c) =>
    `${pct(c.pairing?.excludedShare ?? 0)} of the shared items were excluded (more than ${pct(c.policy.maxExcluded)})`,
  'kind missing': (c) =>
    `no item of ${[...(c.pairing?.missingKinds ?? []), ...(c.policy.gate === 'per-kind' ? (c.pairing?.baselineOnlyKinds ?? []) : [])].join(', ')} could be paired`,
  'kind too few items': (c) =>
    `gate per-kind: ${c.kinds
      .filter((k) => k.status === 'too few items')
      .map((k) => k.kind)
      .join(', ')} have too few items`,
  'shard missing': (c) =>
    `shard${(c.shards?.missing.length ?? 0) > 1 ? 's' : ''} ${(c.shards?.missing ?? []).join(', ')} of ` +
    `${c.shards?.count ?? '?'} gave no results: their items are not answered (re-run the failed matrix job, then the merge)`,
  'drop not excluded': (c) => {
    const o = c.overall;
    const bound = o?.test ? `, ${level(c.look.alpha)} lower bound ${pp(o.test.lower)}` : '';
    return `a drop of ${pp(c.policy.minDrop).slice(1)} is not ruled out (overall ${pp(o?.delta ?? 0)}${bound})`;
  },
};

/**
 * A regressed row: its observed change, its Holm p, and what its bound rules out — the drop is at
 * least the upper bound's size, which may be less than min-drop (the gate's "at least min-drop" is
 * the observed change's, never a claim the bound does not make).
 */
const regression = (name: string, r: Row, alpha: number): string => {
  const upper = r.test?.upper;
  const bound =
    upper !== undefined && upper < 0
      ? `; at least ${pp(upper).slice(1)} at the ${level(alpha)} bound`
      : '';
  return `${name} ${pp(r.delta)} (${p(r.test?.pDropAdjusted)} Holm${bound})`;
};

/** One sentence: what the verdict rests on (plain text; kind names are fixed strings). */
export function describeVerdict(c: Omit<Comparison, 'summary'>): string {
  return verdictSentence(c) + partialPairing(c);
}

/**
 * When only part of the baseline paired: `Paired 17 of 150 baseline items: seed 0 here, 7 in
 * the baseline.` (the selections' difference, when both runs recorded theirs).
 */
function partialPairing(c: Omit<Comparison, 'summary'>): string {
  const pairing = c.pairing;
  const paired = c.overall?.paired ?? 0;
  if (!pairing?.baselineOnly) return '';
  const of = pairing.intersection + pairing.baselineOnly;
  const why = pairing.selectionDiffers?.length ? `: ${pairing.selectionDiffers.join('; ')}` : '';
  return ` Paired ${paired} of ${of} baseline items${why}.`;
}

function verdictSentence(c: Omit<Comparison, 'summary'>): string {
  const o = c.overall;
  const minDrop = pp(c.policy.minDrop).slice(1);
  switch (c.verdict) {
    case 'no-baseline':
      return 'No baseline: nothing to compare with.';
    case 'baseline-unavailable':
      return (
        `Baseline unavailable: ${c.unavailable ?? 'the lookup failed'}. Not a pass: ` +
        "this run's results are kept; re-run when the baseline can be read."
      );
    case 'fail': {
      const alpha = c.look.alpha;
      const rows = [
        ...(o?.status === 'regressed' ? [regression('overall', o, alpha)] : []),
        ...c.kinds.filter((k) => k.status === 'regressed').map((k) => regression(k.kind, k, alpha)),
      ];
      return `Significant drop, ${minDrop} or more as observed: ${rows.join('; ')}.`;
    }
    case 'pass':
      return (
        `No drop of ${minDrop} or more: overall ${pp(o!.delta)} on ${o!.paired} paired items, ` +
        `${level(c.look.alpha)} lower bound ${pp(o!.test!.lower)}` +
        (c.policy.gate === 'per-kind' ? ', and every kind rules it out too.' : '.')
      );
    case 'inconclusive': {
      const needed = o?.test && c.causes.includes('drop not excluded') ? o.test.needed : undefined;
      return (
        `Cannot decide: ${c.causes.map((cause) => CAUSE[cause](c)).join('; ')}.` +
        (needed
          ? ` About ${needed} more paired items would decide (80% power if the models are equal).`
          : '')
      );
    }
  }
}
