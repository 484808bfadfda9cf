import { z } from 'zod';
import type { DirEntry } from './tree.js';
import { defineTool, displayPath, error, notFound } from './tool.js';

/** `list_dir`: what one directory holds. */
export const listDir = defineTool({
  name: 'list_dir',
  description:
    'Lists the entries of a directory of the repository: subdirectories end with "/", symbolic links show "-> target", files that cannot be shown say why.',
  args: z.strictObject({
    path: z.string().describe('The directory, relative to the repository root ("." for the root).'),
  }),
  example: '{"path": "."}',
  run(tree, { path }) {
    const found = tree.lookup(path);
    if (found.kind === 'file')
      return error(
        `${JSON.stringify(found.path)} is a file, not a directory; read it with read_file.`,
      );
    if (found.kind !== 'dir') return notFound(found);
    const where = displayPath(found.path);
    if (!found.entries.length) return { status: 'ok', content: `Directory ${where} is empty.` };
    const count = `${found.entries.length} ${found.entries.length === 1 ? 'entry' : 'entries'}`;
    return {
      status: 'ok',
      content: [`Directory ${where} (${count}):`, ...found.entries.map(entryLine)].join('\n'),
      narrower: 'list a subdirectory, or use search',
    };
  },
});

/** One entry as list_dir (and repo_map) shows it. */
export function entryLine(entry: DirEntry): string {
  switch (entry.kind) {
    case 'dir':
      return `${entry.name}/`;
    case 'link':
      return `${entry.name} -> ${entry.target}`;
    case 'omitted':
      return `${entry.name} (not shown: ${entry.why})`;
    case 'file':
      return entry.name;
  }
}
