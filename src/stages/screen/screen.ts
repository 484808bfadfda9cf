// The screen, pure: harvested candidates in, accepted instances and rejections (each with the rule
// that rejected it) out. docs/generate.md states every rule; the order here is the order there.
import { createHash } from 'node:crypto';
import type { HarvestOutcome } from '../../contracts/oracle.js';
import { canonicalJson } from '../../util/hash.js';
import {
  describeUnanswerable,
  isUnanswerableReason,
  shownText,
  unanswerable,
} from '../kinds/answerable.js';
import type { Drafted } from './candidates.js';

/** Why a candidate was not kept. */
export const SCREEN_RULES = [
  'test-fails',
  'target-not-executed',
  'not-byte-stable',
  'value-truncated',
  'no-answer',
  'empty-answer',
  'too-large',
  'unanswerable',
  'demo-model-right',
  'duplicate-question',
  'no-variant',
  'target-cap',
  'common-answer',
  'package-cap',
] as const;
export type ScreenRule = (typeof SCREEN_RULES)[number];

/**
 * Largest answer (canonical JSON) an instance may have: it has to be written out by the model.
 * 4,000 characters of JSON — numbers, short names, punctuation — are ~1,300–1,600 tokens at
 * 2.5–3 characters a token: within the default `max-tokens` (2,048) of a model that answers
 * without reasoning first (a reasoning model needs a larger `max-tokens` whatever the answer).
 */
export const MAX_ANSWER_CHARS = 4000;
/** Longest list in an answer (an S1 path is at most 150 steps: the proposer's bound, re-checked). */
export const MAX_LIST = 150;
/** A kind's most common answer may be at most this share of its instances (a constant guess scores no more). */
export const MAX_COMMON_SHARE = 0.25;
/** Answers with two or three possible values (booleans, monotonicity) may be at most this share each. */
export const MAX_COMMON_SHARE_BINARY = 0.5;
/** Instances of one (target, kind) kept at most: variety over near-repeats. */
export const PER_TARGET_KIND = 3;

export interface Screened {
  drafted: Drafted;
  /** The oracle answer, when harvested. */
  answer?: unknown;
  /** The question, when harvested. */
  question?: string;
  /** The oracle's combined complexity (0..10), when the tracer measured one: caps keep the hardest. */
  complexity?: number;
}

export interface Rejection {
  id: string;
  kind: string;
  target: string;
  rule: ScreenRule;
  detail: string;
}

export interface ScreenResult {
  accepted: Screened[];
  rejected: Rejection[];
}

/** Which rule a harvest failure breaks, from the tracer's reason. */
export function harvestRule(reason: string): ScreenRule {
  if (/^tests failed|pytest collection error|no tests collected/.test(reason)) return 'test-fails';
  if (/target not executed/.test(reason)) return 'target-not-executed';
  if (/^nondeterministic/.test(reason)) return 'not-byte-stable';
  if (/was cut at/.test(reason)) return 'value-truncated';
  if (isUnanswerableReason(reason)) return 'unanswerable';
  return 'no-answer';
}

function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.length ? value.flatMap(leaves) : [[]];
  if (value && typeof value === 'object') {
    const entries = Object.values(value as Record<string, unknown>);
    return entries.length ? entries.flatMap(leaves) : [{}];
  }
  return [value];
}

/** True when an answer says nothing: every leaf empty, zero or null (false is an answer). */
export function isEmptyAnswer(answer: unknown): boolean {
  return leaves(answer).every(
    (v) =>
      v === null ||
      v === 0 ||
      v === '' ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === 'object' && v !== null && Object.keys(v).length === 0),
  );
}

function longestList(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(longestList));
  if (value && typeof value === 'object')
    return Math.max(0, ...Object.values(value as Record<string, unknown>).map(longestList));
  return 0;
}

/** Rejects an answer too large for a prompt's answer, else undefined. */
export function sizeProblem(answer: unknown): string | undefined {
  const text = canonicalJson(answer);
  if (text.length > MAX_ANSWER_CHARS)
    return `answer is ${text.length} characters (max ${MAX_ANSWER_CHARS})`;
  const list = longestList(answer);
  if (list > MAX_LIST) return `answer holds a list of ${list} items (max ${MAX_LIST})`;
  return undefined;
}

/**
 * The answer rules every kept item passes (an instance, a variant): it says something, it fits, and
 * nothing in it comes from the harvest machine or names what no question defines (answerable.ts).
 */
export function answerProblem(
  answer: unknown,
  shown = '',
): { rule: 'empty-answer' | 'too-large' | 'unanswerable'; detail: string } | undefined {
  if (isEmptyAnswer(answer)) return { rule: 'empty-answer', detail: canonicalJson(answer) };
  const large = sizeProblem(answer);
  if (large) return { rule: 'too-large', detail: large };
  const machine = unanswerable(answer, shown);
  return machine ? { rule: 'unanswerable', detail: describeUnanswerable(machine) } : undefined;
}

/** Answers of at most three possible values: the share cap for them is MAX_COMMON_SHARE_BINARY. */
function binary(answers: readonly string[]): boolean {
  return (
    new Set(answers).size <= 3 &&
    answers.every((a) => /^\{"[a-z_]+":("?[a-z_]+"?|true|false)\}$/.test(a))
  );
}

const rank = (seed: number, id: string): string =>
  createHash('sha256').update(`${seed}\0${id}`).digest('hex');

/**
 * Screens harvested candidates (in their deterministic order). Per
 * candidate: the harvest must have given an oracle (the test passed, the
 * target ran, the double harvest agreed byte for byte, no value was cut),
 * the answer must say something and fit a prompt, and the demo model must
 * not get it right. Then over the survivors: one instance per question; none
 * the variant screen found no fresh variant for (`noVariant`); at
 * most PER_TARGET_KIND per (target, kind); per kind, no answer more common
 * than MAX_COMMON_SHARE (a constant guess scores no more than that); and at
 * most `maxTotal`, taken round robin over kinds so a cap keeps the mix.
 * A cap keeps the most complex items (their oracles' intrinsic complexity), ties broken by a
 * seeded hash of their ids.
 */
export function screen(
  drafted: readonly Drafted[],
  outcomes: ReadonlyMap<string, HarvestOutcome>,
  demoRight: ReadonlySet<string>,
  options: {
    seed: number;
    maxTotal?: number;
    /** Instances with no fresh variant at the screen's epoch, and why (the variant screen). */
    noVariant?: ReadonlyMap<string, string>;
  },
): ScreenResult {
  const rejected: Rejection[] = [];
  const reject = (d: Drafted, rule: ScreenRule, detail: string) =>
    rejected.push({ id: d.instance.id, kind: d.instance.kind, target: d.target, rule, detail });

  let kept: Screened[] = [];
  for (const d of drafted) {
    const outcome = outcomes.get(d.instance.id);
    if (!outcome || outcome.status !== 'ok') {
      const reason = outcome ? outcome.reason : 'not harvested';
      reject(d, harvestRule(reason), reason);
      continue;
    }
    const answer = outcome.entry.oracle.oracle_answer;
    const problem = answerProblem(answer, shownText(d.instance, outcome.entry.context));
    if (problem) {
      reject(d, problem.rule, problem.detail);
      continue;
    }
    if (demoRight.has(d.instance.id)) {
      reject(d, 'demo-model-right', 'the demo model (a heuristic) answers it correctly');
      continue;
    }
    const complexity = outcome.entry.oracle.meta?.complexity?.score;
    kept.push({
      drafted: d,
      answer,
      question: outcome.entry.oracle.question,
      ...(complexity !== undefined ? { complexity } : {}),
    });
  }

  const questions = new Map<string, string>();
  kept = kept.filter((s) => {
    const key = canonicalJson([s.question, s.drafted.instance.tests]);
    const first = questions.get(key);
    if (first) {
      reject(s.drafted, 'duplicate-question', `asks what ${first} asks`);
      return false;
    }
    questions.set(key, s.drafted.instance.id);
    return true;
  });
  kept = kept.filter((s) => {
    const why = options.noVariant?.get(s.drafted.instance.id);
    if (why !== undefined) reject(s.drafted, 'no-variant', why);
    return why === undefined;
  });

  // The hardest first (the oracle's intrinsic complexity: never a model's score), ties by a seeded hash.
  const byRank = (a: Screened, b: Screened) => {
    const hard = (b.complexity ?? -1) - (a.complexity ?? -1);
    if (hard) return hard;
    const x = rank(options.seed, a.drafted.instance.id);
    const y = rank(options.seed, b.drafted.instance.id);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const drop = (
    items: Screened[],
    limit: number,
    rule: ScreenRule,
    detail: string,
  ): Set<Screened> => {
    const dropped = new Set([...items].sort(byRank).slice(limit));
    for (const s of dropped) reject(s.drafted, rule, detail);
    return dropped;
  };

  const perTargetKind = new Map<string, Screened[]>();
  for (const s of kept) {
    const key = `${s.drafted.target}|${s.drafted.instance.kind}`;
    perTargetKind.set(key, [...(perTargetKind.get(key) ?? []), s]);
  }
  const overTarget = new Set<Screened>();
  for (const items of perTargetKind.values())
    for (const s of drop(
      items,
      PER_TARGET_KIND,
      'target-cap',
      `more than ${PER_TARGET_KIND} of this kind on this target`,
    ))
      overTarget.add(s);
  kept = kept.filter((s) => !overTarget.has(s));

  const byKind = new Map<string, Screened[]>();
  for (const s of kept)
    byKind.set(s.drafted.instance.kind, [...(byKind.get(s.drafted.instance.kind) ?? []), s]);
  const common = new Set<Screened>();
  for (const [, items] of byKind) {
    const answers = items.map((s) => canonicalJson(s.answer));
    const share = binary(answers) ? MAX_COMMON_SHARE_BINARY : MAX_COMMON_SHARE;
    const counts = new Map<string, Screened[]>();
    items.forEach((s, i) => counts.set(answers[i]!, [...(counts.get(answers[i]!) ?? []), s]));
    for (const [answer, same] of counts) {
      // The cap of the others' count, so that the kept share is at most `share`.
      const others = items.length - same.length;
      const limit = Math.max(1, Math.floor((share * others) / (1 - share)));
      if (same.length > limit)
        for (const s of drop(
          same,
          limit,
          'common-answer',
          `answer ${answer.slice(0, 80)} would be over ${share * 100}% of its kind`,
        ))
          common.add(s);
    }
  }
  kept = kept.filter((s) => !common.has(s));

  if (options.maxTotal !== undefined && kept.length > options.maxTotal) {
    const queues = [...byKind.keys()]
      .sort()
      .map((kind) => kept.filter((s) => s.drafted.instance.kind === kind).sort(byRank));
    const taken = new Set<Screened>();
    while (taken.size < options.maxTotal && queues.some((q) => q.length))
      for (const q of queues) if (q.length && taken.size < options.maxTotal) taken.add(q.shift()!);
    for (const s of kept)
      if (!taken.has(s))
        reject(s.drafted, 'package-cap', `over the ${options.maxTotal} instances kept per run`);
    kept = kept.filter((s) => taken.has(s));
  }
  return { accepted: kept, rejected };
}
