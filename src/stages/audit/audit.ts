/**
 * The leak audit: prompt-only adversaries answer harvested items from their
 * prompts alone, scored per kind by the kind's own pass rule beside the
 * kind's floor (its best constant answer, score/chance.ts). An adversary
 * more than `margin` over the floor on a kind means the kind's prompts give
 * answers away (docs/benchmark-validity.md).
 *
 * B1/B2 are not audited: their replies are scored by running them against
 * both versions of the code, not by comparing them with an answer, so they
 * have no constant floor and copying the prompt's inputs (which by
 * construction do not expose the bug) cannot pass. Pure: items and
 * answerers in, a table out.
 */
import type { Template } from '../../contracts/instance.js';
import { QUESTION_KINDS } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';
import { chanceLevel } from '../score/chance.js';
import { passes } from '../score/verdict.js';
import { CHARS_PER_TOKEN } from '../prompt/budget.js';
import { copyAnswer } from './adversaries.js';

/** One harvested item as a model sees it, with the answer it is scored against. */
export interface AuditItem {
  id: string;
  kind: string;
  /** The user message of the item's prompt (the system prompt is the same for all). */
  prompt: string;
  template: Template;
  oracle: unknown;
}

/** An answerer that reads the prompt only; `constant` is the kind's best constant answer. */
export type Adversary = (item: Omit<AuditItem, 'oracle'>, constant: unknown) => unknown;

/** The built-in adversaries; a caller adds others (the demo heuristic lives in an adapter). */
export const COPIERS: Record<string, Adversary> = {
  'copy (prompt order)': (item, constant) =>
    copyAnswer(item.prompt, item.template, constant, 'prompt'),
  'copy (sorted)': (item, constant) => copyAnswer(item.prompt, item.template, constant, 'sorted'),
};

/** One kind's row: its floor and each adversary's score, as shares of its items. */
export interface AuditRow {
  kind: string;
  items: number;
  floor: number;
  scores: Record<string, number>;
  /** The adversaries more than the margin over the floor. */
  leaks: string[];
  /** The prompts' size in estimated tokens (CHARS_PER_TOKEN): median and 90th percentile. */
  tokens: { median: number; p90: number };
}

export const DEFAULT_MARGIN = 0.05;

const share = (n: number, of: number) => Math.round((n / of) * 10_000) / 10_000;

/** The nearest-rank percentile `q` of the prompts' estimated tokens. */
function tokens(items: readonly AuditItem[], q: number): number {
  const sizes = items
    .map((i) => Math.ceil(i.prompt.length / CHARS_PER_TOKEN))
    .sort((a, b) => a - b);
  return sizes[Math.max(0, Math.ceil(q * sizes.length) - 1)] ?? 0;
}

/** Per kind (in the kinds' order), the floor and every adversary's score. */
export function auditItems(
  items: readonly AuditItem[],
  adversaries: Record<string, Adversary>,
  margin = DEFAULT_MARGIN,
): AuditRow[] {
  const rows: AuditRow[] = [];
  for (const kind of QUESTION_KINDS) {
    if (!familyOf(kind).constantFloor) continue;
    const mine = items.filter((i) => i.kind === kind);
    if (!mine.length) continue;
    const floor = chanceLevel(
      kind,
      mine.map((i) => i.oracle),
    )!;
    const scores: Record<string, number> = {};
    for (const [name, answer] of Object.entries(adversaries)) {
      let correct = 0;
      for (const item of mine) {
        let prediction: unknown;
        try {
          prediction = answer(item, floor.answer);
        } catch {
          prediction = undefined; // an adversary that cannot read a prompt scores nothing on it
        }
        if (prediction !== undefined && passes(kind, item.oracle, prediction)) correct++;
      }
      scores[name] = share(correct, mine.length);
    }
    const leaks = Object.entries(scores)
      .filter(([, s]) => s > floor.accuracy + margin + 1e-9)
      .map(([name]) => name);
    rows.push({
      kind,
      items: mine.length,
      floor: floor.accuracy,
      scores,
      leaks,
      tokens: { median: tokens(mine, 0.5), p90: tokens(mine, 0.9) },
    });
  }
  return rows;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The audit as a Markdown table: kind, items, floor, each adversary (a leak marked). */
export function auditTable(rows: readonly AuditRow[]): string {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))];
  const head = `| kind | items | floor | ${names.join(' | ')} | prompt tokens (median, p90) |`;
  const rule = `| --- | ---: | ---: | ${names.map(() => '---:').join(' | ')} | ---: |`;
  const body = rows.map(
    (r) =>
      `| ${r.kind} | ${r.items} | ${pct(r.floor)} | ${names
        .map((n) => {
          const s = r.scores[n];
          return s === undefined ? '' : `${pct(s)}${r.leaks.includes(n) ? ' **leak**' : ''}`;
        })
        .join(' | ')} | ${r.tokens.median}, ${r.tokens.p90} |`,
  );
  return [head, rule, ...body].join('\n');
}
