import type { Oracle } from '../../contracts/oracle.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import { pairedAnswer } from './rules.js';

/**
 * The digest an item pairs on: the oracle's kind, question, template and
 * answer as its kind compares it (rules.ts pairedAnswer). Two runs whose
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
      oracle_answer: pairedAnswer(oracle.question_kind, oracle.oracle_answer),
    }),
  );
}
