import type { Comparison } from '../../contracts/comparison.js';
import type { InstanceRecord, Results } from '../../contracts/results.js';
import { codeSpan, escapeMarkdown } from './escape.js';
import { questionExcerpt } from './excerpt.js';

/** Items listed per direction; the rest are counted (all of them are in results.json). */
const SHOWN = 25;
/** Characters of a question or value shown. */
const CUT = 300;

function cut(text: string): string {
  return text.length <= CUT ? text : `${text.slice(0, CUT)}…`;
}

/** A value as one code span: JSON, cut, with nothing that can leave the span. */
function value(v: unknown): string {
  if (v === undefined) return '—';
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return codeSpan(cut(text));
}

/** What the question asks: its target and its asking sentences, not how every question starts. */
function asks(question: string | undefined): string {
  if (!question) return '';
  const q = questionExcerpt(question);
  const changed = q.changed
    ? ` (on changed code: line ${q.changed.line} of ${codeSpan(q.changed.file)})`
    : '';
  return `${q.target ? ` · ${codeSpan(q.target)}${changed}` : changed} — ${escapeMarkdown(cut(q.ask))}`;
}

function item(r: InstanceRecord): string[] {
  const answer =
    r.parsed !== undefined ? value(r.parsed) : r.error ? `no answer (${r.error})` : '—';
  return [
    `- ${codeSpan(r.id)} · ${r.kind}${asks(r.question)}`,
    `  oracle ${value(r.oracle)} · answer ${answer}`,
  ];
}

function section(
  title: string,
  ids: readonly string[],
  byId: Map<string, InstanceRecord>,
): string[] {
  if (!ids.length) return [];
  const records = ids.flatMap((id) => byId.get(id) ?? []);
  const shown = records.slice(0, SHOWN);
  return [
    '',
    `<details><summary>${title} (${ids.length})</summary>`,
    '',
    ...shown.flatMap(item),
    ...(ids.length > shown.length
      ? [`- … and ${ids.length - shown.length} more (results.json)`]
      : []),
    '',
    '</details>',
  ];
}

/**
 * The paired items that changed since the baseline, collapsed: kind, what the
 * question asks (excerpt.ts), oracle and this run's answer. Every string from a model or an instance goes
 * through `escapeMarkdown` or `codeSpan`, so none can mention anyone, open
 * HTML, close the block or forge a marker.
 */
export function flippedSection(results: Results, comparison: Comparison): string[] {
  const flipped = comparison.flipped;
  if (!flipped) return [];
  const byId = new Map(results.instances.map((r) => [r.id, r] as const));
  return [
    ...section('Regressed items — right in the baseline, wrong now', flipped.lost, byId),
    ...section('Fixed items — wrong in the baseline, right now', flipped.gained, byId),
  ];
}
