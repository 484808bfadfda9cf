/** Why a reply yielded no usable answer; each scores as wrong and is counted apart. */
export type ParseFailure = 'empty' | 'no_json' | 'schema_mismatch' | 'truncated' | 'refused';

export type Extraction =
  { ok: true; value: unknown } | { ok: false; failure: ParseFailure; detail: string };

const THINK = /<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi;
const FENCE = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/g;

/**
 * Pulls a JSON value out of raw model text: the whole text, else a fenced
 * block, else the first balanced {...} that parses. Reasoning blocks are
 * stripped first.
 */
export function extractJson(raw: string, finishReason?: string): Extraction {
  const text = raw
    .replace(THINK, '')
    .replace(/<think(?:ing)?>[\s\S]*$/i, '')
    .trim();
  if (!text)
    return {
      ok: false,
      failure: finishReason === 'length' ? 'truncated' : 'empty',
      detail: 'no text',
    };
  const direct = tryParse(text);
  if (direct.ok) return direct;
  for (const match of text.matchAll(FENCE)) {
    const fenced = tryParse((match[1] ?? '').trim());
    if (fenced.ok) return fenced;
  }
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end < 0) continue;
    const candidate = tryParse(text.slice(start, end + 1));
    if (candidate.ok) return candidate;
  }
  if (
    finishReason === 'length' ||
    (text.includes('{') && balancedEnd(text, text.indexOf('{')) < 0)
  ) {
    return { ok: false, failure: 'truncated', detail: 'the JSON object never closes' };
  }
  if (/\b(I can(?:no|')t|I am unable|I'm unable|cannot help|can't assist)\b/i.test(text)) {
    return { ok: false, failure: 'refused', detail: text.slice(0, 120) };
  }
  return { ok: false, failure: 'no_json', detail: text.slice(0, 120) };
}

function tryParse(text: string): Extraction {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, failure: 'no_json', detail: '' };
  }
}

/** Index of the brace closing the one at `start`, string- and escape-aware; -1 if none. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
