import type { QuestionKind } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';
import { DEFAULT_WORLD_FACTOR } from '../../families/world/score.js';
import { DEFAULT_SCORING, SCORERS, type ScoringMode } from './scorer.js';

/** Which rules decide an answer: the scorer's mode, and the world-model kinds' factor. */
export interface ScoringRules {
  /** Default strict. */
  scoring?: ScoringMode;
  /** W2/W3: how far a predicted number may be from the measurement and pass (default 2×). */
  worldFactor?: number;
}

/**
 * The one entry point for scoring an answer: a family with its own pass rule
 * (the world-model kinds: within a factor, the top entry in the top five) by
 * that rule in both modes, any other kind by the chosen scorer's structural
 * comparison.
 */
export function passes(
  kind: string,
  truth: unknown,
  prediction: unknown,
  rules: ScoringRules = {},
): boolean {
  const own = familyOf(kind).passes;
  return own
    ? own(kind as QuestionKind, truth, prediction, rules.worldFactor ?? DEFAULT_WORLD_FACTOR)
    : SCORERS[rules.scoring ?? DEFAULT_SCORING].score(truth, prediction);
}
