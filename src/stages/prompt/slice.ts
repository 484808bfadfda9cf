/**
 * A slice of a Python test module: its preamble (imports, constants, fixtures,
 * helpers: every top-level block that is not a test) plus the tests a node id
 * names, with the other tests left out. Text-level, indentation-based: it needs
 * no interpreter and is deterministic.
 */

interface Block {
  /** First and last line index (0-based, inclusive), decorators included. */
  start: number;
  end: number;
  /** `def`/`class` name for definitions; undefined for statements. */
  name?: string;
}

const DEF = /^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/;

/** Splits a module into top-level blocks (statements, or definitions with their decorators). */
export function topLevelBlocks(source: string): { lines: string[]; blocks: Block[] } {
  const lines = source.replace(/\n$/, '').split('\n');
  const blocks: Block[] = [];
  let pendingDecorator: number | undefined;
  let depth = 0; // open brackets: a top-level statement continues while > 0
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const topLevel = depth === 0 && /^\S/.test(line) && !line.startsWith('#');
    if (topLevel) {
      if (line.startsWith('@')) pendingDecorator ??= i;
      else {
        const name = DEF.exec(line)?.[1];
        blocks.push({ start: pendingDecorator ?? i, end: i, name });
        pendingDecorator = undefined;
      }
    } else if (blocks.length && pendingDecorator === undefined && line.trim()) {
      blocks[blocks.length - 1]!.end = i;
    }
    depth = Math.max(0, depth + bracketDelta(line));
  }
  return { lines, blocks };
}

function bracketDelta(line: string): number {
  const code = line.replace(/(['"])(?:\\.|(?!\1).)*\1/g, '').replace(/#.*$/, '');
  return (code.match(/[([{]/g)?.length ?? 0) - (code.match(/[)\]}]/g)?.length ?? 0);
}

const isTest = (name: string | undefined): boolean =>
  !!name && (name.startsWith('test') || name.startsWith('Test'));

/**
 * The slice of `source` for the given test names (the first `::` segment after
 * the file: a function or a class). With no names, the whole source.
 * Omitted tests are marked by a one-line comment so the model knows.
 */
export function sliceTestModule(source: string, names: readonly string[]): string {
  if (!names.length) return source.replace(/\n$/, '');
  const wanted = new Set(names);
  const { lines, blocks } = topLevelBlocks(source);
  const out: string[] = [];
  let omitted = 0;
  const flush = () => {
    if (omitted) out.push(`# … ${omitted} other test(s) omitted`, '');
    omitted = 0;
  };
  let cursor = 0;
  for (const block of blocks) {
    const keep = !isTest(block.name) || wanted.has(block.name!);
    if (keep) {
      flush();
      out.push(...lines.slice(cursor, block.end + 1));
    } else omitted++;
    cursor = block.end + 1;
  }
  flush();
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The test names a list of pytest node ids selects in `file` (parametrisation dropped). */
export function testNamesIn(file: string, nodeIds: readonly string[]): string[] {
  const names: string[] = [];
  for (const id of nodeIds) {
    const [path, first] = id.split('::');
    if (path !== file) continue;
    if (!first) return []; // the whole file runs
    names.push(first.replace(/\[.*$/, ''));
  }
  return [...new Set(names)];
}
