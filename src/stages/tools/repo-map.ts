import { z } from 'zod';
import { defineTool, displayPath, notFound } from './tool.js';
import type { SourceTree } from './tree.js';

// Column-0 definitions only (a method or a nested function is indented). A regex, not a parser:
// a `def` at column 0 inside a triple-quoted string is listed too, which a map can afford.
const TOP_LEVEL = /^(class|def|async[ \t]+def)[ \t]+([\p{L}_][\p{L}\p{N}_]*)/gmu;

/** The top-level `class`/`def`/`async def` names of Python source, in file order. */
export function topLevelNames(source: string): string[] {
  return [...source.matchAll(TOP_LEVEL)].map((m) => `${m[1]!.replace(/[ \t]+/, ' ')} ${m[2]!}`);
}

/** `repo_map`: the shape of a part of the repository, one line per directory and `.py` file. */
export const repoMap = defineTool({
  name: 'repo_map',
  description:
    'Maps the repository (or the part under path): one line per directory, and one per Python file with its top-level classes and functions.',
  args: z.strictObject({
    path: z
      .string()
      .optional()
      .describe(
        'The directory (or file) to map, relative to the repository root (default the root).',
      ),
  }),
  example: '{"path": "."}',
  run(tree, { path = '' }) {
    const found = tree.lookup(path);
    if (found.kind === 'file') return { status: 'ok', content: fileLine(found.path, found.text) };
    if (found.kind !== 'dir') return notFound(found);
    return {
      status: 'ok',
      content: mapLines(tree, found.path).join('\n'),
      narrower: 'map a subdirectory with path, or list_dir it',
    };
  },
});

function fileLine(path: string, text: string): string {
  const names = topLevelNames(text);
  return names.length ? `${path}: ${names.join(', ')}` : path;
}

/** What the map shows of one directory: its own lines and its subdirectories. */
interface DirMap {
  lines: string[];
  subdirs: string[];
  others: number;
}

// A directory's line, then its Python files and links, then its subdirectories, each the same
// way: a file's line sits under its own directory's. Every path is from the root, ready to read.
function mapLines(tree: SourceTree, root: string): string[] {
  const dirs = new Map<string, DirMap>([[root, { lines: [], subdirs: [], others: 0 }]]);
  for (const node of tree.walk(root)) {
    const parent = dirs.get(
      node.path.slice(0, Math.max(0, node.path.length - node.name.length - 1)),
    )!;
    if (node.kind === 'dir') {
      parent.subdirs.push(node.path);
      dirs.set(node.path, { lines: [], subdirs: [], others: 0 });
    } else if (node.kind === 'link') parent.lines.push(`${node.path} -> ${node.target}`);
    else if (node.kind === 'file' && node.path.endsWith('.py'))
      parent.lines.push(fileLine(node.path, node.text));
    else parent.others++;
  }
  const emit = (dir: string): string[] => {
    const { lines, subdirs, others } = dirs.get(dir)!;
    const more = others ? ` (+${others} other file${others === 1 ? '' : 's'})` : '';
    return [`${displayPath(dir)}/${more}`, ...lines, ...subdirs.flatMap(emit)];
  };
  return emit(root);
}
