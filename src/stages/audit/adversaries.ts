/**
 * Prompt-only adversaries: answerers that read nothing but the prompt and
 * reason about nothing. If one of them beats a kind's floor (its best
 * constant answer), the prompt carries the answer — a leak — and the kind
 * measures copying, not execution reasoning (docs/benchmark-validity.md).
 *
 * The copier takes every function the prompt names in a heading
 * (`## Code under test: FILE (FUNC)`, `## May be called: FILE (FUNC)`, any
 * `## LABEL: FILE (FUNC)`, the names of `## Not shown`) and every test it
 * shows (`FILE::test_x`), with the line each starts at, and writes them into
 * every field of the template that holds names (a call order, covered
 * functions, hot methods and lines, safe tests), in prompt order or sorted. Every other field keeps the
 * kind's best constant, so the copier scores at least the floor wherever
 * copying does not hurt and what it adds over the floor is what the prompt
 * gave away. Pure: prompt text and template in, an answer out.
 */
import type { Template } from '../../contracts/instance.js';

/** One function or test the prompt names, where it is shown starting. */
export interface Named {
  file: string;
  func: string;
  line: number;
  /** The code under test (a call order or a callee list never starts with it: it is the caller). */
  target?: boolean;
}

const HEADING = /^## ([^:\n]+): (\S+) \(([^)]+)\)\n```python\n\s*(\d+)/gm;
const NOT_SHOWN =
  /^# (?:Also reachable, not shown[^:]*|Calls resolved only at run time[^:]*): (.+)$/gm;
const TEST_FILE = /^## Test file: (\S+)\n```python\n([\s\S]*?)\n```/gm;
const TEST_DEF = /^\s*(\d+) {2}(?:async\s+)?def (test\w*)\s*\(/gm;

/** The functions and tests the prompt names, in prompt order (first mention kept). */
export function namedInPrompt(prompt: string): { functions: Named[]; tests: Named[] } {
  const functions: Named[] = [];
  const seen = new Set<string>();
  const add = (n: Named) => {
    const key = `${n.file}\0${n.func}`;
    if (seen.has(key)) return;
    seen.add(key);
    functions.push(n);
  };
  for (const m of prompt.matchAll(HEADING))
    add({
      file: m[2]!,
      func: m[3]!,
      line: Number(m[4]),
      ...(m[1] === 'Code under test' ? { target: true } : {}),
    });
  for (const m of prompt.matchAll(NOT_SHOWN))
    for (const name of m[1]!.split(/,\s*/)) {
      const split = /^(?:(\S+?)::)?(.+)$/.exec(name.trim())!;
      add({ file: split[1] ?? '', func: split[2]!, line: 0 });
    }
  const tests: Named[] = [];
  for (const file of prompt.matchAll(TEST_FILE))
    for (const def of file[2]!.matchAll(TEST_DEF))
      tests.push({ file: file[1]!, func: def[2]!, line: Number(def[1]) });
  return { functions, tests };
}

/** What a template field of names gets from the copier, or undefined when it holds no names. */
function copyField(key: string, shape: Template, named: ReturnType<typeof namedInPrompt>): unknown {
  if (!Array.isArray(shape)) return undefined;
  const element = shape[0];
  if (element && typeof element === 'object' && !Array.isArray(element)) {
    const fields = Object.keys(element);
    if (fields.includes('test'))
      return named.tests.map((t) => ({ test: `${t.file}::${t.func}`, exception_type: '' }));
    if (!fields.some((f) => ['func', 'callee'].includes(f))) return undefined;
    const caller = named.functions.find((n) => n.target)?.func ?? '';
    const calls = /call/.test(key) || fields.includes('callee');
    return named.functions
      .filter((n) => !(calls && n.target))
      .map((n) =>
        Object.fromEntries(
          fields.map((f) => [
            f,
            f === 'file'
              ? n.file
              : f === 'func' || f === 'callee'
                ? n.func
                : f === 'caller'
                  ? caller
                  : f === 'line'
                    ? n.line
                    : f === 'count'
                      ? 1
                      : '',
          ]),
        ),
      );
  }
  if (element !== 'str') return undefined;
  if (/lines/.test(key)) return named.functions.map((n) => `${n.file}:${n.line}`);
  if (/tests/.test(key)) return named.tests.map((t) => `${t.file}::${t.func}`);
  if (/method/.test(key)) return named.functions.map((n) => n.func);
  if (/chain|function|call/.test(key))
    return named.functions.filter((n) => !(/call/.test(key) && n.target)).map((n) => n.func);
  return undefined;
}

function sortNamed(named: ReturnType<typeof namedInPrompt>): ReturnType<typeof namedInPrompt> {
  const by = (a: Named, b: Named) =>
    a.file === b.file ? (a.func < b.func ? -1 : a.func > b.func ? 1 : 0) : a.file < b.file ? -1 : 1;
  return { functions: [...named.functions].sort(by), tests: [...named.tests].sort(by) };
}

/**
 * The copier's answer: `constant` (the kind's best constant, or `{}`) with
 * every field of names replaced by what the prompt names.
 */
export function copyAnswer(
  prompt: string,
  template: Template,
  constant: unknown,
  order: 'prompt' | 'sorted',
): unknown {
  const found = namedInPrompt(prompt);
  const named = order === 'sorted' ? sortNamed(found) : found;
  const base =
    constant && typeof constant === 'object' && !Array.isArray(constant)
      ? { ...(constant as Record<string, unknown>) }
      : {};
  if (!template || typeof template !== 'object' || Array.isArray(template)) return base;
  for (const [key, shape] of Object.entries(template)) {
    const copied = copyField(key, shape, named);
    if (copied !== undefined) base[key] = copied;
  }
  return base;
}
