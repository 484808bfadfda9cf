/** A prompt budget: characters, or tokens estimated at 4 characters each. */
export interface PromptBudget {
  amount: number;
  unit: 'chars' | 'tokens';
}

/** Characters per token of the estimate: deterministic and tokenizer-free, roughly right for code. */
export const CHARS_PER_TOKEN = 4;

/** Parses `48000`, `48000c`, `48000 chars`, `12000t`, `12000 tokens`; undefined if malformed. */
export function parseBudget(text: string): PromptBudget | undefined {
  const m = /^\s*(\d+)\s*(c|chars?|characters|t|tokens?)?\s*$/i.exec(text);
  if (!m) return undefined;
  const amount = Number(m[1]);
  if (!Number.isSafeInteger(amount) || amount <= 0) return undefined;
  return { amount, unit: m[2]?.toLowerCase().startsWith('t') ? 'tokens' : 'chars' };
}

export function budgetChars(budget: PromptBudget): number {
  return budget.unit === 'tokens' ? budget.amount * CHARS_PER_TOKEN : budget.amount;
}

export function formatBudget(budget: PromptBudget): string {
  return `${budget.amount} ${budget.unit}`;
}

/**
 * Cuts `text` to at most `max` characters at a line boundary, keeping the
 * head and saying how many lines were dropped. Deterministic.
 */
export function truncateLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    const marker = `# … truncated: ${lines.length - kept.length} more line(s)`;
    if (size + line.length + 1 + marker.length > max) break;
    kept.push(line);
    size += line.length + 1;
  }
  const dropped = lines.length - kept.length;
  const marker = `# … truncated: ${dropped} more line(s)`;
  return marker.length <= max ? [...kept, marker].join('\n') : '';
}
