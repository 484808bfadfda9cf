import { z } from 'zod';
import { compilePattern } from './safe-regex.js';
import { defineTool, displayPath, error, fileLines, notFound } from './tool.js';

/** Matches search reports at most; past them it says so. */
export const MAX_MATCHES = 200;
/** Characters of a line search matches a regular expression against and shows. */
export const MAX_LINE_CHARS = 500;

/** `search`: lines matching a string or a bounded regular expression, in path order. */
export const search = defineTool({
  name: 'search',
  description:
    'Finds the lines of the repository (or of the file or directory at path) that contain pattern, as "path:line: text"; with regex true, pattern is a JavaScript regular expression.',
  args: z.strictObject({
    pattern: z.string().describe('The text to find (case-sensitive), or a regular expression.'),
    path: z
      .string()
      .optional()
      .describe('A file or directory to search, relative to the repository root (default all).'),
    regex: z
      .boolean()
      .optional()
      .describe(`Whether pattern is a regular expression (default false: a fixed string).`),
  }),
  example: '{"pattern": "def main", "path": "."}',
  run(tree, { pattern, path = '', regex = false }) {
    if (pattern === '') return error('search: the pattern is empty; give the text to find.');
    let matches: (line: string) => boolean;
    if (regex) {
      const compiled = compilePattern(pattern);
      if (!compiled.ok) return { status: compiled.status, content: compiled.message };
      // Cut before matching: a regex's worst case grows with the line, and minified files
      // have lines of megabytes.
      matches = (line) => compiled.regex.test(cut(line));
    } else matches = (line) => line.includes(pattern);

    const found = tree.lookup(path);
    let files: { path: string; text: string }[];
    if (found.kind === 'file') files = [found];
    else if (found.kind === 'dir')
      files = [...tree.walk(found.path)].flatMap((n) => (n.kind === 'file' ? [n] : []));
    else return notFound(found);

    const out: string[] = [];
    for (const file of files) {
      const lines = fileLines(file.text);
      for (let i = 0; i < lines.length; i++) {
        if (!matches(lines[i]!)) continue;
        if (out.length === MAX_MATCHES) {
          out.push(
            `[stopped after ${MAX_MATCHES} matches; narrow the pattern, or search a smaller path]`,
          );
          return { status: 'ok', content: out.join('\n') };
        }
        out.push(`${file.path}:${i + 1}: ${cut(lines[i]!)}`);
      }
    }
    const kind = regex ? 'regular expression' : 'text';
    if (!out.length)
      return {
        status: 'ok',
        content: `No line under ${displayPath(found.path)} matches the ${kind} ${JSON.stringify(pattern)}.`,
      };
    return { status: 'ok', content: out.join('\n'), narrower: 'narrow the pattern or the path' };
  },
});

/** The first MAX_LINE_CHARS characters of a line, never half a surrogate pair. */
function cut(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const code = line.charCodeAt(MAX_LINE_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS;
  return line.slice(0, end);
}
