import type { QuestionKind } from '../contracts/kinds.js';
import type { InstanceRecord } from '../contracts/results.js';

/**
 * A kind family: the kinds that are asked, harvested, agreed on, scored and
 * summed up the same way. Everything a family decides is here, and a stage
 * asks the registry (registry.ts) rather than testing a kind's name:
 *
 * - **traced** (S1–S7, M1–M7): SWE-Flux's execution-reasoning kinds, answered
 *   by the tracer from one recorded run; two runs agree on identical answers;
 *   scored by the run's structural scorer.
 * - **world** (W1–W4): the software world-model kinds, measured in clean runs
 *   (fresh processes, one test at a time); runs agree within a band; scored by
 *   their own pass rule, with the study's metrics beside it.
 * - **comet** (B1, B2): a seeded bug whose correct version is hidden; a reply
 *   is code, run in the sandbox against both versions, and scored on what
 *   happened.
 *
 * Adding a family is one folder beside these (its kinds in contracts/kinds.ts,
 * this interface implemented) and one line in the registry; CONTRIBUTING.md
 * says how, and test/unit/families.test.ts follows it for a toy family.
 */
export interface KindFamily {
  readonly name: string;
  /** The kinds it claims; a kind is claimed by exactly one family (checkFamilies). */
  readonly kinds: readonly QuestionKind[];
  /** What writes the bundle's instances of this family (a suite rewritten by another keeps them). */
  readonly generator: string;
  /**
   * What one item is expected to cost to harvest, in traced items (the shard balance:
   * docs/benchmarks.md measured a world-model item at ~4, a B1/B2 item at ~8).
   */
  readonly harvestCost: number;
  /** Why its items cannot get fresh variants (an edit of their test); undefined when they can. */
  readonly fixed?: 'world-model-kind' | 'bug-kind';
  /**
   * Its replies are code run in the sandbox against the buggy and the hidden correct version: the
   * harvest stages the mutated package privately, a run with such items builds a verifier.
   */
  readonly runsReplies: boolean;
  /** Whether one constant answer has a floor to measure (chance level, the leak audit). */
  readonly constantFloor: boolean;
  /**
   * The kinds whose items are measured fresh and alone, with every other question of their test
   * but its mutants (the world-model kinds' measured phase); none when absent.
   */
  readonly timedKinds?: readonly QuestionKind[];
  /** The part of an answer two runs must share to be paired; the whole answer when absent. */
  pairedAnswer?(kind: QuestionKind, answer: unknown): unknown;
  /**
   * The answer independent harvest runs agree on, or undefined when they do not (every run was ok);
   * when absent, runs agree only on identical answers.
   */
  agreedAnswer?(kind: QuestionKind, runs: readonly MeasuredRun[]): { answer: unknown } | undefined;
  /** Its own pass rule; when absent the run's structural scorer decides. */
  passes?(kind: QuestionKind, truth: unknown, prediction: unknown, factor: number): boolean;
  /** Constants beyond the oracle answers its pass rule makes worth trying (chance level). */
  constants?(kind: QuestionKind, oracles: readonly unknown[], factor: number): ConstantCandidates;
  /** What a scored record adds for its family's metrics. */
  recordExtras?(
    kind: QuestionKind,
    truth: unknown,
    prediction: unknown,
    measurement: Record<string, unknown> | undefined,
  ): Partial<InstanceRecord>;
  /** Its metrics over a run's scored records, under `summaryKey` in the summary; undefined when none. */
  summarize?(records: readonly InstanceRecord[]): unknown;
  readonly summaryKey?: 'world' | 'comet';
}

/** One harvest run's measurement: its answer, the band its tracer recorded, (W4) its names near each top. */
export interface MeasuredRun {
  answer: unknown;
  band?: { ratio?: unknown; floor?: unknown };
  nearTop?: Record<string, unknown>;
}

/** A family's constants for the chance level: tried before the oracle answers (`first`) or after. */
export interface ConstantCandidates {
  first: unknown[];
  last: unknown[];
  /** A division per comparison: the chance level may afford more of them. */
  measured: boolean;
}
