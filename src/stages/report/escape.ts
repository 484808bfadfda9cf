/**
 * Escapes text that did not come from us (ids, model names, server messages)
 * so it cannot break the table, open HTML, or @-mention anyone.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\\`*_{}[\]<>|#]/g, (c) => `\\${c}`)
      .replace(/@/g, '@\u200b')
      // Every line break markdown or a browser honours, a bare CR included.
      .replace(/\r\n?|[\n\u0085\u2028\u2029]/g, ' ')
  );
}

/** Inline code for untrusted text outside tables: no backticks or line breaks can escape it. */
export function codeSpan(text: string): string {
  return `\`${text.replace(/[`\r\n\u0085\u2028\u2029]/g, ' ')}\``;
}
