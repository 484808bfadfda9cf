import { parseLenientAt, parseWhole } from './lenient.js';
import { stripReasoning } from './reasoning.js';

/** Why a reply yielded no usable answer; each scores as wrong and is counted apart. */
export type ParseFailure = 'empty' | 'no_json' | 'schema_mismatch' | 'truncated' | 'refused';

/** JSON values found in a reply, in text order, plus what the scan noticed. */
export interface Candidates {
  /** Reply text with reasoning removed. */
  text: string;
  values: unknown[];
  /** Some object opened and never closed before the text ended. */
  unclosed: boolean;
}

const FENCE = /(```|~~~)[\w-]*[ \t]*\n?([\s\S]*?)\1/g;
/** Beyond this, only the tail is scanned: answers come last and the scan must stay linear-ish. */
const MAX_SCAN_CHARS = 200_000;
/** At most this many `{` (or `[`) positions are tried as the start of a value. */
const MAX_STARTS = 256;

const REFUSAL =
  /\b(I can(?:no|')t (?:help|assist|answer|comply|provide)|I(?: am|'m) (?:unable|not able) to|I won't|cannot (?:help|assist) with|as an AI\b)/i;

/**
 * Every JSON value in the reply, in order: the whole text if it is one value;
 * else each fenced block that holds one, and each complete top-level `{…}`
 * (or `[…]` when `arrays`) in the prose, read leniently (single quotes,
 * trailing commas, Python literals). Reasoning blocks are stripped first.
 */
export function findCandidates(raw: string, arrays = false): Candidates {
  const stripped = stripReasoning(raw);
  const text = stripped.length > MAX_SCAN_CHARS ? stripped.slice(-MAX_SCAN_CHARS) : stripped;
  const whole = text ? parseWhole(text) : undefined;
  if (whole) return { text, values: [whole.value], unclosed: false };
  const found: { at: number; value: unknown }[] = [];
  for (const fence of text.matchAll(FENCE)) {
    const inner = parseWhole((fence[2] ?? '').trim());
    if (inner) found.push({ at: fence.index, value: inner.value });
  }
  let unclosed = false;
  const opener = arrays ? /[{[]/g : /\{/g;
  // Answers come last: past MAX_STARTS openers only the last ones are tried, so a
  // reply of 10,000 nested braces costs milliseconds, not seconds.
  const starts = [...text.matchAll(opener)].map((m) => m.index);
  if (starts.length > MAX_STARTS) opener.lastIndex = starts[starts.length - MAX_STARTS]!;
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    const r = parseLenientAt(text, m.index);
    if (r.ok) {
      found.push({ at: m.index, value: r.value });
      opener.lastIndex = r.end;
    } else if (r.eof) unclosed = true;
  }
  found.sort((a, b) => a.at - b.at);
  return { text, values: found.map((f) => f.value), unclosed };
}

/**
 * Why a reply with no acceptable value failed, in order of precedence:
 * nothing left after reasoning (empty, or truncated if cut at max tokens), an
 * answer cut short, values of the wrong shape, a refusal, no JSON at all.
 */
export function classifyFailure(
  candidates: Candidates,
  finishReason: string | undefined,
  mismatch: string | undefined,
): { failure: ParseFailure; detail: string } {
  const cut = finishReason === 'length';
  if (!candidates.text)
    return { failure: cut ? 'truncated' : 'empty', detail: cut ? 'cut at max tokens' : 'no text' };
  if (cut || candidates.unclosed)
    return {
      failure: 'truncated',
      detail: cut ? 'cut at max tokens before a complete answer' : 'the JSON object never closes',
    };
  if (candidates.values.length) return { failure: 'schema_mismatch', detail: mismatch ?? '' };
  if (REFUSAL.test(candidates.text))
    return { failure: 'refused', detail: candidates.text.slice(0, 120) };
  return { failure: 'no_json', detail: candidates.text.slice(0, 120) };
}
