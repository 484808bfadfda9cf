/**
 * Whether an answer can be derived from what the model is given: an oracle
 * that holds something of the harvest machine (its paths, user names,
 * temporary directories, memory addresses) or a name no question defines
 * (`<process>`) measures luck, not execution reasoning. Pure: an answer in,
 * the first offending string and the rule it breaks out.
 *
 * A string the model is shown is answerable wherever it came from: a test
 * that writes to `/tmp/out.txt` by name, a B1 input holding a path. So a
 * match that occurs in `shown` (the instance and the prompt's context, as
 * text) is kept.
 *
 * The harvest applies it to every oracle (an outside suite's included: the
 * oracle is refused by name with the rule it breaks, never kept); the
 * generator's screen and the variant screen see the refusal as the rule
 * `unanswerable` (docs/generate.md).
 */

export interface Unanswerable {
  /** The rule broken (`machine-path`, `machine-user`, `address`, `undefined-name`). */
  rule: 'machine-path' | 'machine-user' | 'address' | 'undefined-name';
  /** The offending string, as found (cut to 120 characters). */
  found: string;
}

const RULES: readonly { rule: Unanswerable['rule']; pattern: RegExp }[] = [
  // The sandbox's own directories and pytest's per-user temporary root.
  { rule: 'machine-path', pattern: /(?<=^|[\s'"(=:])\/tg\/[^\s'"]*/ },
  { rule: 'machine-path', pattern: /pytest-of-[\w.-]+/ },
  { rule: 'machine-path', pattern: /(?<=^|[\s'"(=:])\/(?:tmp|var\/tmp|dev\/shm)\/[^\s'"]+/ },
  { rule: 'machine-user', pattern: /\btracegate\d{3,}\b/ },
  // A live address (masked ones are written `0x…`).
  { rule: 'address', pattern: /\bat 0x[0-9a-fA-F]{4,}\b/ },
  { rule: 'undefined-name', pattern: /<process>/ },
];

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out.push(k);
      strings(v, out);
    }
  return out;
}

/**
 * The first thing in `answer` no model could know from its prompt, or
 * undefined when there is none. `shown`: what the model is given, as text; a
 * match found in it is answerable.
 */
export function unanswerable(answer: unknown, shown = ''): Unanswerable | undefined {
  for (const text of strings(answer))
    for (const { rule, pattern } of RULES) {
      const global = new RegExp(pattern.source, 'g');
      for (const match of text.matchAll(global)) {
        const found = match[0].trim();
        if (!shown.includes(found)) return { rule, found: found.slice(0, 120) };
      }
    }
  return undefined;
}

/** The sentence a refusal gives: what was found, the rule, and what to do. */
export function describeUnanswerable(u: Unanswerable): string {
  return (
    `the oracle holds ${JSON.stringify(u.found)}, which no prompt can show (answerability rule ` +
    `${u.rule}): regenerate the item so its answer does not depend on the harvest machine, or drop it`
  );
}

/**
 * What a model is given that an answer may quote, as one text: the instance
 * (its query, tests, mutant) and the prompt's context (code, slice, test
 * files, example calls). A superset of any one prompt (the budget may cut it).
 */
export function shownText(instance: unknown, context: unknown): string {
  return `${JSON.stringify(instance)}\n${JSON.stringify(context)}`;
}

/** Whether a harvest reason is an answerability refusal (describeUnanswerable's sentence). */
export const isUnanswerableReason = (reason: string): boolean =>
  /\(answerability rule [a-z-]+\)/.test(reason);
