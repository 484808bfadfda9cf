/**
 * Whether an answer can be derived from what the model is given: an oracle
 * that holds something of the harvest machine (its paths, user names,
 * temporary directories, memory addresses) or a name no question defines
 * (`<process>`) measures luck, not execution reasoning. Pure: an answer in,
 * the first offending string and the rule it breaks out.
 *
 * Used by the generator's screen and the variant screen (such an item is
 * never written). The harvest is to refuse an outside suite's oracle that
 * breaks it, by name, once the bundle's own items that do are regenerated
 * (issue 43); docs/generate.md lists the rule.
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

/** The first thing in `answer` no model could know from its prompt, or undefined when there is none. */
export function unanswerable(answer: unknown): Unanswerable | undefined {
  for (const text of strings(answer))
    for (const { rule, pattern } of RULES) {
      const match = pattern.exec(text);
      if (match) return { rule, found: match[0].trim().slice(0, 120) };
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
