import type { Template } from '../../contracts/instance.js';
import { classifyFailure, findCandidates, type ParseFailure } from './extract.js';
import { validateAgainstTemplate } from './validate.js';

export type ParsedAnswer =
  | { ok: true; value: unknown }
  | { ok: false; failure: ParseFailure; detail: string; value?: unknown };

/**
 * Raw model text → the answer, fairly: reasoning stripped, JSON found wherever
 * the model put it (bare, fenced, in prose; leniently read), and of all values
 * found the LAST one that fits the template wins — models state the answer
 * last, and an echoed template or a first guess should not count against them.
 * With none fitting, the failure is classified (see classifyFailure) and the
 * last value found is kept for the record.
 */
export function parseAnswer(
  raw: string,
  finishReason: string | undefined,
  template: Template,
): ParsedAnswer {
  const candidates = findCandidates(raw, Array.isArray(template));
  let mismatch: string | undefined;
  for (let i = candidates.values.length - 1; i >= 0; i--) {
    const validated = validateAgainstTemplate(candidates.values[i], template);
    if (validated.ok) return validated;
    if (!validated.ok && mismatch === undefined) mismatch = validated.detail;
  }
  return {
    ok: false,
    ...classifyFailure(candidates, finishReason, mismatch),
    value: candidates.values.at(-1),
  };
}
