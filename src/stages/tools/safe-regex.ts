/**
 * Which regular expressions search runs. JavaScript's engine backtracks and cannot be stopped
 * mid-match, so a pattern that can take exponential time on one line would hang the run: a
 * quantified group whose body can match the same text in many ways. The checks are on the
 * pattern's text and are conservative (they refuse some harmless patterns, never a slow one of
 * these shapes); lines are also cut before matching, which bounds the polynomial cases.
 */

/** The longest regular expression search runs. */
export const MAX_PATTERN_CHARS = 200;

/** A compiled pattern, or why it is refused or invalid (a message for the model). */
export type CompiledPattern =
  { ok: true; regex: RegExp } | { ok: false; status: 'refused' | 'error'; message: string };

/** What one open group has seen so far. */
interface Group {
  quantifier: boolean;
  alternation: boolean;
}

const ADVICE = 'search for a fixed string (regex false), or write the pattern without it';

/** Compiles `pattern` if it is short and cannot backtrack exponentially. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_CHARS)
    return refused(
      `the pattern is ${pattern.length} characters long; patterns are at most ${MAX_PATTERN_CHARS}`,
    );
  const unsafe = unsafeReason(pattern);
  if (unsafe) return refused(unsafe);
  try {
    return { ok: true, regex: new RegExp(pattern) };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      status: 'error',
      message: `search: ${why}. Patterns are JavaScript regular expressions (no inline flags such as (?i), no (?P<name>…)); fix it, or set regex false to search for the text as written.`,
    };
  }
}

function refused(why: string): CompiledPattern {
  return {
    ok: false,
    status: 'refused',
    message: `search refuses this pattern: ${why}; ${ADVICE}.`,
  };
}

/** Why the pattern is refused, or undefined: backreferences, and repeated ambiguous groups. */
export function unsafeReason(pattern: string): string | undefined {
  const open: Group[] = [{ quantifier: false, alternation: false }];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))
        return `it holds a backreference (\\${next}${next === 'k' ? '<…>' : ''})`;
      i += 2;
    } else if (c === '[') i = classEnd(pattern, i);
    else if (c === '(') {
      open.push({ quantifier: false, alternation: false });
      i = groupBodyStart(pattern, i);
    } else if (c === ')' && open.length > 1) {
      const group = open.pop()!;
      const outer = open[open.length - 1]!;
      const q = quantifierAt(pattern, i + 1);
      if (q?.repeats && group.quantifier)
        return `a repeated group holds a quantifier (nested quantifiers, like (a+)+ or (a*)*, can take exponential time)`;
      if (q?.repeats && group.alternation)
        return `a repeated group holds alternatives (like (a|a)*, which can take exponential time)`;
      outer.quantifier ||= group.quantifier || q !== undefined;
      outer.alternation ||= group.alternation;
      i += 1 + (q?.length ?? 0);
    } else if (c === '|') {
      open[open.length - 1]!.alternation = true;
      i++;
    } else {
      const q = quantifierAt(pattern, i);
      if (q) open[open.length - 1]!.quantifier = true;
      i += q?.length ?? 1;
    }
  }
  return undefined;
}

/** A quantifier starting at `i` (with a lazy `?`), and whether it repeats (more than once). */
function quantifierAt(
  pattern: string,
  i: number,
): { length: number; repeats: boolean } | undefined {
  const c = pattern[i];
  let length: number;
  let repeats: boolean;
  if (c === '*' || c === '+') [length, repeats] = [1, true];
  else if (c === '?') [length, repeats] = [1, false];
  else {
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!braces) return undefined; // a literal `{`
    const max =
      braces[2] === undefined ? Number(braces[1]) : braces[3] ? Number(braces[3]) : Infinity;
    [length, repeats] = [braces[0].length, max > 1];
  }
  return { length: length + (pattern[i + length] === '?' ? 1 : 0), repeats };
}

/** Past a character class starting at `i` (`]` first in the class is a literal). */
function classEnd(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === '^') j++;
  if (pattern[j] === ']') j++;
  while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** Past a group's opening: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`. */
function groupBodyStart(pattern: string, i: number): number {
  if (pattern[i + 1] !== '?') return i + 1;
  const rest = pattern.slice(i + 2);
  const prefix = /^(?:[:=!]|<[=!]|<[^>]*>)/.exec(rest);
  return i + 2 + (prefix?.[0].length ?? 0);
}
