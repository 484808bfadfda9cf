/**
 * Text for a log that a CI runner cannot take for a command. GitHub's runner
 * reads a log line that starts with `::` (`::add-mask::`, `::warning::`,
 * `::stop-commands::`, `::set-output`) or `##[` as a workflow command, on
 * standard output and standard error alike; a suite's environment name or a
 * reply's text printed in a message could put one at the start of a line.
 * Each line that would start one gets a zero-width space inside its marker:
 * it reads the same and commands nothing. Carriage returns become line
 * breaks first (a runner splits on either).
 */
export function inertLog(text: string): string {
  if (!/::|##\[/.test(text)) return text;
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line.replace(/^(\s*)(::|##\[)/, (_all, space: string, mark: string) =>
        mark === '::' ? `${space}:\u200b:` : `${space}#\u200b#[`,
      ),
    )
    .join('\n');
}
