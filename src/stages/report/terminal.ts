/**
 * The report as a terminal shows it: the same text as report.md and the PR comment, without
 * markdown's marks — no escapes (`p < 0.0001`, not `p = \< 0.0001`), no bold, no HTML: a
 * collapsed section's title ends in a colon and its body follows. Tables stay pipe tables.
 */
export function forTerminal(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !/^\s*<!--.*-->\s*$/.test(line) && line.trim() !== '</details>')
    .map((line) =>
      line
        .replace(/<details><summary>(.*)<\/summary>/g, '$1:')
        .replace(/<\/?sub>/g, '')
        .replace(/^#{1,6} /, '')
        .replace(/\*\*([^*]+)\*\*/g, '$1')
        .replace(/\\([\\`*_{}[\]<>|#])/g, '$1')
        .replace(/@\u200b/g, '@'),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
