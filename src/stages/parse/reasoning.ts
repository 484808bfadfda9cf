/** Paired reasoning delimiters that models emit inline before an answer. */
const PAIRS: [open: string, close: string][] = [
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
  ['<reasoning>', '</reasoning>'],
  ['<|begin_of_thought|>', '<|end_of_thought|>'],
];

/**
 * Removes reasoning from raw model text: complete blocks, an unclosed block
 * (cut at max tokens: everything after its opener), and text before a lone
 * closer (chat templates that put the opener into the prompt, as DeepSeek-R1's
 * does, leave only `</think>` in the reply).
 */
export function stripReasoning(raw: string): string {
  let text = raw;
  for (const [open, close] of PAIRS) {
    const lower = () => text.toLowerCase();
    // Lone closer before any opener: the opener was in the prompt.
    const firstClose = lower().indexOf(close);
    const firstOpen = lower().indexOf(open);
    if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen))
      text = text.slice(firstClose + close.length);
    for (let start = lower().indexOf(open); start >= 0; start = lower().indexOf(open)) {
      const end = lower().indexOf(close, start + open.length);
      text = end < 0 ? text.slice(0, start) : text.slice(0, start) + text.slice(end + close.length);
    }
  }
  return text.trim();
}
