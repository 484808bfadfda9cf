import { z } from 'zod';
import { numberLines } from '../prompt/number-lines.js';
import { defineTool, error, fileLines, notFound } from './tool.js';

const lineNumber = z.int().min(1);

/** `read_file`: a file's lines, numbered as the prompts number them. */
export const readFile = defineTool({
  name: 'read_file',
  description:
    'Reads a file of the repository, each line prefixed by its line number; start_line and end_line (1-based, inclusive) read a part of it.',
  args: z.strictObject({
    path: z.string().describe('The file, relative to the repository root.'),
    start_line: lineNumber.optional().describe('The first line to read (default 1).'),
    end_line: lineNumber.optional().describe('The last line to read (default the last line).'),
  }),
  example: '{"path": "src/module.py", "start_line": 1, "end_line": 80}',
  run(tree, { path, start_line: start = 1, end_line }) {
    const found = tree.lookup(path);
    if (found.kind === 'dir')
      return error(
        `${JSON.stringify(found.path || '.')} is a directory, not a file; list it with list_dir.`,
      );
    if (found.kind !== 'file') return notFound(found);
    const name = JSON.stringify(found.path);
    const lines = fileLines(found.text);
    if (!lines.length) return { status: 'ok', content: `File ${name} is empty.` };
    if (start > lines.length)
      return error(
        `${name} has ${lines.length} line${lines.length === 1 ? '' : 's'}; start_line ${start} is past its end. Ask for lines 1 to ${lines.length}.`,
      );
    if (end_line !== undefined && end_line < start)
      return error(
        `end_line ${end_line} is before start_line ${start}; give end_line >= start_line.`,
      );
    const end = Math.min(end_line ?? lines.length, lines.length);
    const whole = start === 1 && end === lines.length;
    const header = whole
      ? `File ${name} (${lines.length} line${lines.length === 1 ? '' : 's'}):`
      : `File ${name}, lines ${start}-${end} of ${lines.length}:`;
    // One line at a time: numberLines drops a final empty line, which here is a line of the file.
    const body = lines.slice(start - 1, end).map((line, i) => numberLines(line, start + i));
    return {
      status: 'ok',
      content: [header, ...body].join('\n'),
      narrower: 'ask for a narrower range with start_line and end_line',
    };
  },
});
