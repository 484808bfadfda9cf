import { pct, pp } from '../compare/describe.js';
import { itemsToSignificance } from '../compare/paired.js';
import type { Comparison, KindRow, Row } from '../../contracts/comparison.js';

/**
 * A move at least this large (and at least `min-drop` / `min-gain`) is never
 * called "within noise": when the gate cannot call it, too few items can.
 */
export const LARGE_MOVE = 0.1;

/** What the report calls a row: the gate's status, with large undecided moves told apart. */
export type Mark =
  | 'regressed'
  | 'improved'
  | 'too few to decide'
  | 'small, significant'
  | 'within noise'
  | 'too few items';

const ICON: Record<Mark, string> = {
  regressed: '🔴',
  improved: '🟢',
  'too few to decide': '🟠',
  'small, significant': '⚪',
  'within noise': '⚪',
  'too few items': '▫️',
};

/** The mark as the table shows it (`🔴 regressed`), a large undecided move with what would decide it. */
export function statusText(r: Row, c: Comparison): string {
  const mark = markOf(r, c);
  return `${ICON[mark]} ${mark === 'too few to decide' ? undecided(r, c) : mark}`;
}

/** Floating-point slack, as the gate's (a 1/10 drop is a 0.1 drop). */
const EPS = 1e-9;

/**
 * The row's mark: `regressed` / `improved` as the gate decided; a move of at
 * least LARGE_MOVE the gate did not call is `too few to decide`; a significant
 * move below min-drop / min-gain is `small, significant`; an untested small
 * row `too few items`; anything else `within noise`.
 */
export function markOf(r: Row, c: Pick<Comparison, 'policy' | 'look'>): Mark {
  if (r.status === 'regressed' || r.status === 'improved') return r.status;
  const large =
    r.delta <= -Math.max(LARGE_MOVE, c.policy.minDrop) + EPS ||
    r.delta >= Math.max(LARGE_MOVE, c.policy.minGain) - EPS;
  if (r.paired && large) return 'too few to decide';
  if (r.status === 'too few items') return 'too few items';
  const p = Math.min(r.test?.pDropAdjusted ?? 1, r.test?.pGainAdjusted ?? 1);
  return p < c.look.alpha ? 'small, significant' : 'within noise';
}

/**
 * How many more paired items would make this row's change significant by the
 * gate, if the change and its per-item spread held: itemsToSignificance at
 * α/k (Holm's strictest step, k = the gate's family with this row in it), and
 * at least the gate's minimum of items and clusters. Undefined without a
 * spread to size it from (one cluster) or when items are not what is missing.
 */
export function itemsToDecide(r: Row, c: Comparison): number | undefined {
  if (!r.test) return undefined;
  const tested = [c.overall, ...c.kinds].filter((x) => x?.test?.pDropAdjusted !== undefined);
  const family = tested.length + (r.test.pDropAdjusted === undefined ? 1 : 0);
  const total = itemsToSignificance(
    { n: r.paired, se: r.test.se, clusters: r.clusters },
    r.delta,
    c.look.alpha / Math.max(family, 1),
  );
  if (total === undefined) return undefined;
  // The gate tests a row only with its minimum of items and of clusters (clusters growing with items).
  const forClusters = Math.ceil((c.policy.minClusters * r.paired) / Math.max(r.clusters, 1));
  const more = Math.max(total, c.policy.minItems, forClusters) - r.paired;
  return more > 0 ? more : undefined;
}

/** `−84.7 … −40.3 pp`: the row's two one-sided bounds, within −100 … +100 pp. */
export function boundsText(r: Row): string {
  const clamp = (x: number) => Math.max(-1, Math.min(1, x));
  const lower = pp(clamp(r.test!.lower)).replace(/ pp$/, '');
  return `${lower} … ${pp(clamp(r.test!.upper))}`;
}

/** Whether the row's bounds are worth reading (tested, enough items). */
export const hasBounds = (r: Row | undefined): r is Row & { test: NonNullable<Row['test']> } =>
  !!r?.test && r.status !== 'too few items';

/** Why a large move is undecided, and what would decide it. */
export function undecided(r: Row, c: Comparison): string {
  const more = itemsToDecide(r, c);
  if (more !== undefined) return `too few to decide; +${more} items would`;
  if (r.clusters < c.policy.minClusters)
    return `too few to decide (${r.clusters} cluster${r.clusters === 1 ? '' : 's'}; the gate needs ${c.policy.minClusters})`;
  return 'too few to decide';
}

const items = (n: number) => `${n} paired item${n === 1 ? '' : 's'}`;

function moved(k: KindRow, floor: number | undefined): string {
  const bounds = hasBounds(k) ? ` (${boundsText(k)})` : '';
  return (
    `- ${ICON[k.status as Mark]} **${k.kind}** ${pp(k.delta)}${bounds} on ${items(k.paired)}: ` +
    `${pct(k.baseline)} → ${pct(k.candidate)}${floor !== undefined ? `, floor ${pct(floor)}` : ''}`
  );
}

/**
 * The kinds a reader must see first: those that moved significantly (the gate's `regressed` and
 * `improved`), worst first. Kinds whose large drop is too small to decide alone are not listed one
 * by one: their group (traced single-test, traced multi-test, world model, bug reasoning) is,
 * pooled with the same statistics, naming them. Every other kind is in the full table.
 */
export function movesSection(c: Comparison, floors: Record<string, number | undefined>): string[] {
  if (!c.overall?.paired) return [];
  const byDelta = (a: KindRow, b: KindRow) => a.delta - b.delta || a.kind.localeCompare(b.kind);
  const marked = c.kinds.map((k) => ({ k, mark: markOf(k, c) }));
  const significant = marked
    .filter((m) => m.mark === 'regressed' || m.mark === 'improved')
    .map((m) => m.k)
    .sort(byDelta);
  const tooFew = marked
    .filter((m) => m.mark === 'too few to decide' && m.k.delta < 0)
    .map((m) => m.k)
    .sort(byDelta);
  if (!significant.length && !tooFew.length)
    return ['', `No kind moved significantly or dropped ${pp(LARGE_MOVE).slice(1)} or more.`];
  return ['', ...significant.map((k) => moved(k, floors[k.kind])), ...tooFewLines(tooFew, c)];
}

/** Large drops too small to decide alone: one line per group that holds them, the group pooled. */
function tooFewLines(tooFew: readonly KindRow[], c: Comparison): string[] {
  const alone = (k: KindRow) => `${k.kind} ${pp(k.delta)} (${k.paired})`;
  // A group of one kind pools nothing: that kind is listed alone.
  const groups = (c.groups ?? []).filter(
    (g) => g.kinds.length > 1 && tooFew.some((k) => g.kinds.includes(k.kind)),
  );
  const grouped = new Set(groups.flatMap((g) => g.kinds));
  const lines = groups.map((g) => {
    const mark = markOf(g, c);
    const bounds = hasBounds(g) ? ` (${boundsText(g)})` : '';
    const status = mark === 'too few to decide' ? `; ${undecided(g, c)}` : `: ${mark}`;
    const small = tooFew.filter((k) => g.kinds.includes(k.kind)).map(alone);
    return (
      `- ${ICON[mark]} **${g.group}** (${g.kinds.length} kind${g.kinds.length === 1 ? '' : 's'} ` +
      `pooled) ${pp(g.delta)}${bounds} on ${items(g.paired)}${status} — too few alone: ${small.join(', ')}`
    );
  });
  // Kinds no group pools: one line each, with what would decide them.
  for (const k of tooFew.filter((k) => !grouped.has(k.kind)))
    lines.push(
      `- ${ICON['too few to decide']} **${k.kind}** ${pp(k.delta)} on ${items(k.paired)}: ${undecided(k, c)}`,
    );
  return lines;
}
