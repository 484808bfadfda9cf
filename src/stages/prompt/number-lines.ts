/** Source lines prefixed by their absolute 1-based line numbers, as the answers use them. */
export function numberLines(source: string, firstLine: number): string {
  return source
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => `${String(firstLine + i).padStart(5)}  ${line}`)
    .join('\n');
}
