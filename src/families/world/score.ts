/**
 * The world-model kinds' scoring, as the JetBrains study measures models:
 * a per-instance pass rule for the gate (outcome exact with its exception
 * type; a number within a factor of the truth; the true hottest entry — each
 * of them, where harvests disagreed among near-equal ones — among the
 * predicted top five), and the study's aggregate metrics beside it
 * (outcome precision/recall/F1 with failure as positive; log10 calibration
 * slope, bias and MAE; NDCG@5, Recall@5 and execution rate of ranked lists).
 * Pure: answers in, numbers out. Predictions are replies from outside:
 * strings, negatives, zeros and huge numbers are parsed or refused, never thrown.
 */
import { MEASURED_FIELD, type WorldKind } from '../../contracts/kinds.js';
import { TIED_TOPS } from './agreement.js';

export const DEFAULT_WORLD_FACTOR = 2;
/** Zero (and smaller) predictions and truths are floored before taking logs, as the study does. */
export const FLOOR_MS = 0.01;
export const FLOOR_BYTES = 10_000;
export const RANK_LISTS = [
  'hot_methods_time',
  'hot_methods_alloc',
  'hot_lines_time',
  'hot_lines_alloc',
] as const;
export type RankList = (typeof RANK_LISTS)[number];

type Answer = Record<string, unknown>;

/**
 * The largest measurement a reply may state: 10^15 (a petabyte of memory, or
 * 30,000 years in milliseconds). Past it a number is not a measurement: it
 * would only move a calibration's mean (a time bias of 306.9 from one `1e308`).
 */
export const MAX_REPLY_NUMBER = 1e15;

/**
 * A measurement from a reply: a JSON number or numeric string from 0 to
 * MAX_REPLY_NUMBER; anything else (negative, infinite, astronomically large,
 * not a number) is no number.
 */
export function replyNumber(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value.trim().replace(/_/g, ''))
        : NaN;
  return Number.isFinite(n) && n >= 0 && n <= MAX_REPLY_NUMBER ? n : undefined;
}

function asObject(value: unknown): Answer {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Answer) : {};
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** `UsageError` names `click.exceptions.UsageError` (whole dotted components); null names null. */
export function sameException(truth: unknown, predicted: unknown): boolean {
  if (truth === null || truth === undefined) return predicted === null || predicted === undefined;
  if (typeof truth !== 'string' || typeof predicted !== 'string') return false;
  const p = predicted.trim();
  return p === truth || (p.length > 0 && truth.endsWith('.' + p));
}

function failing(outcome: unknown): boolean {
  return typeof outcome === 'string' && outcome.trim().toLowerCase() !== 'passed';
}

/** The measured kinds' number: its field in the answer, and the floor both sides are raised to. */
export const VALUE: Partial<Record<WorldKind, { field: string; floor: number }>> = {
  W2_PeakMemory: { field: MEASURED_FIELD.W2_PeakMemory!, floor: FLOOR_BYTES },
  W3_WallTime: { field: MEASURED_FIELD.W3_WallTime!, floor: FLOOR_MS },
};

/** Whether the prediction passes the kind's per-instance rule (the gate's verdict). */
export function passesWorld(
  kind: WorldKind,
  oracle: unknown,
  prediction: unknown,
  factor = DEFAULT_WORLD_FACTOR,
): boolean {
  const truth = asObject(oracle);
  const said = asObject(prediction);
  if (kind === 'W1_Outcome') {
    const outcome =
      typeof said.outcome === 'string' ? said.outcome.trim().toLowerCase() : undefined;
    return outcome === truth.outcome && sameException(truth.exception_type, said.exception_type);
  }
  const value = VALUE[kind];
  if (value) {
    const t = replyNumber(truth[value.field]);
    const p = replyNumber(said[value.field]);
    if (t === undefined || p === undefined) return false;
    const a = Math.max(t, value.floor);
    const b = Math.max(p, value.floor);
    return Math.max(a / b, b / a) <= factor;
  }
  return RANK_LISTS.every((list) => {
    const top5 = names(said[list]).slice(0, 5);
    return topsOf(truth, list).every((top) => top5.includes(top));
  });
}

/**
 * The names a list's pass rule asks for in the predicted top five: its true top entry, or, where the
 * harvests disagreed which of near-equal names leads (agreement.ts, profileTops), every leader.
 */
export function topsOf(truth: Answer, list: RankList): string[] {
  const tied = names(asObject(truth[TIED_TOPS])[list]);
  if (tied.length) return tied;
  const top = names(truth[list])[0];
  return top === undefined ? [] : [top];
}

/** What one scored world-model instance adds to the aggregate metrics (recorded per instance). */
export interface WorldMeasures {
  /** W1: the truth and the prediction, failure (failed or error) as positive. */
  outcome?: { failing: boolean; predictedFailing: boolean };
  /** W2/W3: log10 of the floored truth and prediction. */
  log10?: { truth: number; predicted: number };
  /** W4: per ranked list. */
  ranked?: Partial<
    Record<RankList, { ndcg5: number; recall5: number; predicted: number; ran: number }>
  >;
}

/**
 * The instance's contribution to the metrics, from its oracle answer, the
 * parsed prediction and (W4) the names that ran at all (`executed`: every
 * function and every line the profile saw); undefined when the prediction
 * gives nothing to measure (a refused number: the pass rule already failed it).
 */
export function worldMeasures(
  kind: WorldKind,
  oracle: unknown,
  prediction: unknown,
  executed?: { functions: string[]; lines: string[] },
): WorldMeasures | undefined {
  const truth = asObject(oracle);
  const said = asObject(prediction);
  if (kind === 'W1_Outcome') {
    if (typeof said.outcome !== 'string') return undefined;
    return {
      outcome: { failing: failing(truth.outcome), predictedFailing: failing(said.outcome) },
    };
  }
  const value = VALUE[kind];
  if (value) {
    const t = replyNumber(truth[value.field]);
    const p = replyNumber(said[value.field]);
    if (t === undefined || p === undefined) return undefined;
    return {
      log10: {
        truth: Math.log10(Math.max(t, value.floor)),
        predicted: Math.log10(Math.max(p, value.floor)),
      },
    };
  }
  const ranked: WorldMeasures['ranked'] = {};
  for (const list of RANK_LISTS) {
    const true5 = names(truth[list]).slice(0, 5);
    const predicted = [...new Set(names(said[list]))];
    const ran = new Set(list.startsWith('hot_methods') ? executed?.functions : executed?.lines);
    ranked[list] = {
      ndcg5: ndcgAt5(true5, predicted),
      recall5: true5.length
        ? predicted.slice(0, 5).filter((n) => true5.includes(n)).length / true5.length
        : 1,
      predicted: predicted.length,
      ran: executed
        ? predicted.filter((n) => ran.has(n) || names(truth[list]).includes(n)).length
        : 0,
    };
  }
  return { ranked };
}

/**
 * NDCG@5 with graded relevance from the true ranking: the true top entry is
 * worth 5, the fifth 1, anything else 0; gains 2^rel − 1, discount log2(i + 2).
 */
export function ndcgAt5(true5: string[], predicted: string[]): number {
  const rel = (name: string) => {
    const i = true5.indexOf(name);
    return i < 0 ? 0 : 5 - i;
  };
  const dcg = (list: string[]) =>
    list.slice(0, 5).reduce((sum, name, i) => sum + (2 ** rel(name) - 1) / Math.log2(i + 2), 0);
  const ideal = dcg(true5);
  return ideal === 0 ? 1 : dcg(predicted) / ideal;
}

export interface Calibration {
  n: number;
  /** Least-squares slope of log10(prediction) on log10(truth); null with fewer than two distinct truths. */
  slope: number | null;
  /** Mean of log10(prediction) − log10(truth): positive = overestimates. */
  bias: number;
  /** Mean absolute log10 error (0.3 ≈ a factor of 2). */
  mae: number;
}

export function calibration(points: { truth: number; predicted: number }[]): Calibration {
  const n = points.length;
  if (!n) return { n: 0, slope: null, bias: 0, mae: 0 };
  const mean = (f: (p: { truth: number; predicted: number }) => number) =>
    points.reduce((s, p) => s + f(p), 0) / n;
  const mx = mean((p) => p.truth);
  const my = mean((p) => p.predicted);
  const sxx = points.reduce((s, p) => s + (p.truth - mx) ** 2, 0);
  const sxy = points.reduce((s, p) => s + (p.truth - mx) * (p.predicted - my), 0);
  return {
    n,
    slope: sxx > 1e-12 ? round(sxy / sxx) : null,
    bias: round(mean((p) => p.predicted - p.truth)),
    mae: round(mean((p) => Math.abs(p.predicted - p.truth))),
  };
}

export interface OutcomeMetrics {
  n: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** Items without a usable answer, counted wrong (present when there are any). */
  unanswered?: number;
}

/** One W1 item for the metrics; `unanswered` items predict the wrong class. */
type OutcomePair = { failing: boolean; predictedFailing: boolean; unanswered?: boolean };

/** Failure as the positive class; null where a ratio has no denominator. */
export function outcomeMetrics(pairs: OutcomePair[]): OutcomeMetrics {
  const tp = pairs.filter((p) => p.failing && p.predictedFailing).length;
  const fp = pairs.filter((p) => !p.failing && p.predictedFailing).length;
  const fn = pairs.filter((p) => p.failing && !p.predictedFailing).length;
  const precision = tp + fp ? tp / (tp + fp) : null;
  const recall = tp + fn ? tp / (tp + fn) : null;
  const f1 =
    precision !== null && recall !== null
      ? precision + recall
        ? (2 * precision * recall) / (precision + recall)
        : 0
      : null;
  const unanswered = pairs.filter((p) => p.unanswered).length;
  return {
    n: pairs.length,
    precision: precision === null ? null : round(precision),
    recall: recall === null ? null : round(recall),
    f1: f1 === null ? null : round(f1),
    ...(unanswered ? { unanswered } : {}),
  };
}

export interface WorldSummary {
  outcome?: OutcomeMetrics;
  /** `unanswered`: items with no number to place (unparsed, refused), beside the `n` calibrated. */
  memory?: Calibration & { unanswered?: number };
  time?: Calibration & { unanswered?: number };
  profile?: {
    n: number;
    ndcg5: Partial<Record<RankList, number>>;
    recall5: Partial<Record<RankList, number>>;
    /** Share of predicted names (all lists) that actually ran; null when none was predicted. */
    executionRate: number | null;
    /** Items without a usable answer, in `n` with NDCG@5 and Recall@5 of an empty list. */
    unanswered?: number;
  };
}

/** An item of a world-model kind: its measures, if its answer gave any, and its oracle answer. */
export interface WorldItem {
  kind: string;
  measures?: WorldMeasures;
  oracle?: unknown;
}

/**
 * A W1 item without a usable answer, as the metrics count it: the class it is
 * not (a miss when the test fails, a false alarm when it passes), like the
 * pass rate counts it wrong. Nothing without an oracle to know the class.
 */
function unansweredOutcome(oracle: unknown): OutcomePair[] {
  const truth = asObject(oracle).outcome;
  if (typeof truth !== 'string') return [];
  return [{ failing: failing(truth), predictedFailing: !failing(truth), unanswered: true }];
}

const withUnanswered = <T extends object>(metrics: T, unanswered: number) =>
  unanswered ? { ...metrics, unanswered } : metrics;

/**
 * The study's aggregate metrics over the scored world-model instances. Every
 * metric counts the items without a usable answer (unparsed, refused, never
 * answered), as the pass rate does: W1 counts them as the wrong class, W4 as
 * empty lists, W2/W3 say how many had no number beside their calibration.
 */
export function summarizeWorld(items: WorldItem[]): WorldSummary | undefined {
  const of = (kind: string) => items.filter((i) => i.kind === kind);
  const outcomes = of('W1_Outcome').flatMap((i) =>
    i.measures?.outcome ? [i.measures.outcome] : unansweredOutcome(i.oracle),
  );
  const numbers = (kind: string) => {
    const all = of(kind);
    const points = all.flatMap((i) => (i.measures?.log10 ? [i.measures.log10] : []));
    return { points, unanswered: all.length - points.length };
  };
  const memory = numbers('W2_PeakMemory');
  const time = numbers('W3_WallTime');
  let profilesUnanswered = 0;
  const profiles = of('W4_Profile').flatMap((i) => {
    if (i.measures?.ranked) return [i.measures.ranked];
    if (i.oracle === undefined) return [];
    profilesUnanswered++;
    return [worldMeasures('W4_Profile', i.oracle, {})!.ranked!];
  });
  const summary: WorldSummary = {};
  if (outcomes.length) summary.outcome = outcomeMetrics(outcomes);
  if (memory.points.length || memory.unanswered)
    summary.memory = withUnanswered(calibration(memory.points), memory.unanswered);
  if (time.points.length || time.unanswered)
    summary.time = withUnanswered(calibration(time.points), time.unanswered);
  if (profiles.length) {
    const ndcg5: Partial<Record<RankList, number>> = {};
    const recall5: Partial<Record<RankList, number>> = {};
    let predicted = 0;
    let ran = 0;
    for (const list of RANK_LISTS) {
      const rows = profiles.flatMap((p) => (p[list] ? [p[list]!] : []));
      if (!rows.length) continue;
      ndcg5[list] = round(rows.reduce((s, r) => s + r.ndcg5, 0) / rows.length);
      recall5[list] = round(rows.reduce((s, r) => s + r.recall5, 0) / rows.length);
      predicted += rows.reduce((s, r) => s + r.predicted, 0);
      ran += rows.reduce((s, r) => s + r.ran, 0);
    }
    summary.profile = withUnanswered(
      {
        n: profiles.length,
        ndcg5,
        recall5,
        executionRate: predicted ? round(ran / predicted) : null,
      },
      profilesUnanswered,
    );
  }
  return Object.keys(summary).length ? summary : undefined;
}

function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A world-model instance's contribution to the study's metrics (summarized in results). */
export function worldRecord(
  kind: WorldKind,
  truth: unknown,
  prediction: unknown,
  measurement: Record<string, unknown> | undefined,
): { world?: Record<string, unknown> } {
  const ran = (measurement?.executed ?? {}) as { time_func?: unknown; time_line?: unknown };
  const list = (v: unknown) =>
    Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : [];
  const executed =
    kind === 'W4_Profile'
      ? { functions: list(ran.time_func), lines: list(ran.time_line) }
      : undefined;
  const world = worldMeasures(kind, truth, prediction, executed);
  return world ? { world: world as Record<string, unknown> } : {};
}
