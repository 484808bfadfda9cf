/**
 * The software world-model kinds of the JetBrains study: what one test does
 * as a whole (outcome, peak memory, wall time, hot spots), measured in clean
 * runs rather than traced (tracer/README.md, "World-model kinds").
 */
export const WORLD_KINDS = ['W1_Outcome', 'W2_PeakMemory', 'W3_WallTime', 'W4_Profile'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

/** Where a measured number is in the answer of the kinds that measure one (W2, W3). */
export const MEASURED_FIELD: Partial<Record<WorldKind, string>> = {
  W2_PeakMemory: 'peak_bytes',
  W3_WallTime: 'wall_ms',
};

export function isWorldKind(kind: string): kind is WorldKind {
  return (WORLD_KINDS as readonly string[]).includes(kind);
}

/**
 * Comet's program-state kinds (Li, Garg, Huang, 2026): a function with a bug whose correct version
 * is hidden; the reply is run against both versions in the sandbox (tracer/tracegate_tracer/comet/verify.py)
 * and scored on what happened (docs/comet.md).
 */
export const COMET_KINDS = ['B1_BuggyIO', 'B2_RegressionTest'] as const;
export type CometKind = (typeof COMET_KINDS)[number];

export function isCometKind(kind: string): kind is CometKind {
  return (COMET_KINDS as readonly string[]).includes(kind);
}

/** SWE-Flux's execution-reasoning kinds: single-test (S) and suite (M) variants of its seven categories. */
export const TRACED_KINDS = [
  'S1_IntraProceduralCFG',
  'S2_Loops',
  'S3_ProgramState',
  'S4_DataFlow',
  'S5_Exceptions',
  'S6_InterProceduralCFG',
  'S7_Invariants',
  'M1_IntraProceduralCFG',
  'M2_Loops',
  'M3_ProgramState',
  'M4_DataFlow',
  'M5_Exceptions',
  'M6_InterProceduralCFG',
  'M7_Invariants',
] as const;

/**
 * Question kinds, with SWE-Flux's exact `question_kind` strings: the traced
 * kinds, then the world-model kinds and Comet's. Each is claimed by one
 * family (src/families/registry.ts).
 */
export const QUESTION_KINDS = [...TRACED_KINDS, ...WORLD_KINDS, ...COMET_KINDS] as const;

export type QuestionKind = (typeof QUESTION_KINDS)[number];

/**
 * Resolves a category filter token to kinds: an exact kind, a short prefix
 * (`S1`, `M1`, `W2`) or a category name (`Loops` matches S2_Loops and M2_Loops).
 */
export function kindsMatching(token: string): QuestionKind[] {
  const t = token.trim().toLowerCase();
  return QUESTION_KINDS.filter((kind) => {
    const k = kind.toLowerCase();
    const [prefix, name] = k.split('_');
    return k === t || prefix === t || name === t;
  });
}
