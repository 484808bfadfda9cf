import { heuristicAnswer } from './heuristic.js';

/** How far past the target's first line the reference agent reads (its body is cut by indentation). */
const WINDOW = 400;

/** What the reference agent does next: call a tool, or answer. */
export type AgentStep = { call: { name: string; arguments: string } } | { text: string };

/** The `## Where to look` line of a `context: repo` prompt: the target's file, name and first line. */
function target(prompt: string): { file: string; func: string; line: number } | undefined {
  const m = /^Code under test: (\S+), function (\S+) \(defined from line (\d+)\)\.$/m.exec(prompt);
  return m ? { file: m[1]!, func: m[2]!, line: Number(m[3]) } : undefined;
}

/** The numbered lines of the function a read from its first line returned: cut where its indentation ends. */
function functionLines(numbered: string): string {
  const lines = numbered.split('\n').filter((l) => /^\s*\d+ {2}/.test(l));
  const text = (l: string) => l.replace(/^\s*\d+ {2}/, '');
  const indent = (l: string) => /^\s*/.exec(text(l))![0].length;
  const defAt = lines.findIndex((l) => /^\s*(async\s+)?def\s/.test(text(l)));
  if (defAt < 0) return lines.join('\n');
  const base = indent(lines[defAt]!);
  let end = defAt + 1;
  while (end < lines.length && (!text(lines[end]!).trim() || indent(lines[end]!) > base)) end++;
  return lines.slice(0, end).join('\n');
}

/**
 * The demo model as a reference agent for `context: repo`: it reads the target with one
 * `read_file` call from its first line, then answers as the one-shot heuristic would answer a
 * prompt that showed that function. A prompt with no `## Where to look` is answered at once.
 * Reads only what its tools return, never an oracle.
 */
export function referenceAgentStep(prompt: string, results: readonly string[]): AgentStep {
  const where = target(prompt);
  if (!where) return { text: heuristicAnswer(prompt) };
  if (!results.length)
    return {
      call: {
        name: 'read_file',
        arguments: JSON.stringify({
          path: where.file,
          start_line: where.line,
          end_line: where.line + WINDOW,
        }),
      },
    };
  const shown = prompt
    .replace(/\n## Where to look\n[\s\S]*?\n\n## Question/, '\n\n## Question')
    .replace(
      /\n\n## Question/,
      `\n\n## Code under test: ${where.file} (${where.func})\n\`\`\`python\n${functionLines(results[0]!)}\n\`\`\`\n\n## Question`,
    );
  return { text: heuristicAnswer(shown) };
}
