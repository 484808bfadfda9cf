import type { Oracle } from '../../contracts/oracle.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import type { QuestionKind } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';

/**
 * The digest an item pairs on: the oracle's kind, question, template and
 * answer as its family compares it (`pairedAnswer`). Two runs whose
 * oracles differ here asked (or answered) a different question, so the item
 * is not paired. The query stage stamps it on each record; the gate pairs on it.
 */
export function oracleDigest(
  oracle: Pick<Oracle, 'question_kind' | 'question' | 'template_answer' | 'oracle_answer'>,
): string {
  return sha256(
    canonicalJson({
      question_kind: oracle.question_kind,
      question: oracle.question,
      template_answer: oracle.template_answer,
      oracle_answer: paired(oracle.question_kind, oracle.oracle_answer),
    }),
  );
}

/** The part of an answer two runs must share to be paired: the family's, else the whole answer. */
function paired(kind: string, answer: unknown): unknown {
  const own = familyOf(kind).pairedAnswer;
  return own ? own(kind as QuestionKind, answer) : answer;
}
