/**
 * Question kinds, with SWE-Flux's exact `question_kind` strings: single-test
 * (S) and suite (M) variants of the seven execution-reasoning categories.
 */
export const QUESTION_KINDS = [
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

export type QuestionKind = (typeof QUESTION_KINDS)[number];

/**
 * Resolves a category filter token to kinds: an exact kind, a short prefix
 * (`S1`, `M1`) or a category name (`Loops` matches S2_Loops and M2_Loops).
 */
export function kindsMatching(token: string): QuestionKind[] {
  const t = token.trim().toLowerCase();
  return QUESTION_KINDS.filter((kind) => {
    const k = kind.toLowerCase();
    const [prefix, name] = k.split('_');
    return k === t || prefix === t || name === t;
  });
}
