import { numberLines } from './number-lines.js';

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
 * the file: a function or a class), every line numbered as in the file (an
 * answer may name a test file's line: the numbers must be true). With no
 * names, the whole source. Each run of omitted tests is one line that says
 * which lines it stands for, so the numbering stays true around it.
 */
export function sliceTestModule(source: string, names: readonly string[]): string {
  const { lines, blocks } = topLevelBlocks(source);
  if (!names.length) return numberLines(lines.join('\n'), 1);
  const wanted = new Set(names);
  const out: string[] = [];
  let omitted: { from: number; to: number; tests: number } | undefined;
  let kept: { from: number; lines: string[] } | undefined;
  const flushKept = () => {
    if (kept) out.push(numberLines(kept.lines.join('\n'), kept.from));
    kept = undefined;
  };
  const flushOmitted = () => {
    if (omitted)
      out.push(
        `      …  lines ${omitted.from}–${omitted.to}: ${omitted.tests} other test(s) omitted`,
      );
    omitted = undefined;
  };
  let cursor = 0;
  for (const block of blocks) {
    const keep = !isTest(block.name) || wanted.has(block.name!);
    if (keep) {
      flushOmitted();
      kept ??= { from: cursor + 1, lines: [] };
      kept.lines.push(...lines.slice(cursor, block.end + 1));
    } else {
      flushKept();
      omitted ??= { from: cursor + 1, to: block.end + 1, tests: 0 };
      omitted.to = block.end + 1;
      omitted.tests++;
    }
    cursor = block.end + 1;
  }
  if (cursor < lines.length) {
    flushOmitted();
    kept ??= { from: cursor + 1, lines: [] };
    kept.lines.push(...lines.slice(cursor));
  }
  flushKept();
  flushOmitted();
  return out.join('\n');
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
