/**
 * The two scorers, chosen by `scoring`. Each has an identity, `name@version`,
 * recorded in every results file's provenance: runs scored by different
 * scorers (or versions) are never compared. Bump a version whenever its rules
 * change what it accepts.
 */
import type { PyValue } from './python/values.js';
import { scoreStrict } from './strict.js';
import { scoreSweFlux } from './swe-flux.js';

export const SCORING_MODES = ['strict', 'swe-flux'] as const;
export type ScoringMode = (typeof SCORING_MODES)[number];

export interface Scorer {
  mode: ScoringMode;
  /** `name@version`, recorded in results. */
  id: string;
  /** Whether `prediction` (a parsed answer) answers the oracle's `oracle_answer`. */
  score(oracleAnswer: unknown, prediction: unknown): boolean;
}

export const SCORERS: Readonly<Record<ScoringMode, Scorer>> = {
  strict: {
    mode: 'strict',
    id: 'tracegate-strict@3',
    score: (o, p) => scoreStrict(o as PyValue, p as PyValue),
  },
  'swe-flux': {
    mode: 'swe-flux',
    id: 'swe-flux-compat@2',
    score: (o, p) => scoreSweFlux(o as PyValue, p as PyValue),
  },
};

export const DEFAULT_SCORING: ScoringMode = 'strict';
export const DEFAULT_SCORER = SCORERS[DEFAULT_SCORING].id;
