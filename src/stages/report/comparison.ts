import { level, pct, pp } from '../compare/describe.js';
import type { Comparison, Row, RowStatus } from '../../contracts/comparison.js';
import type { KindSummary } from '../../contracts/results.js';
import { codeSpan, escapeMarkdown } from './escape.js';

const STATUS: Record<RowStatus, string> = {
  regressed: '🔴 regressed',
  improved: '🟢 improved',
  'within noise': '⚪ within noise',
  'too few items': '▫️ too few items',
};

const VERDICT: Record<Comparison['verdict'], string> = {
  pass: '✅ **pass**',
  fail: '❌ **fail**',
  inconclusive: '🟡 **inconclusive**',
  'no-baseline': 'ℹ️ **no baseline**',
  'baseline-unavailable': '⚠️ **baseline unavailable**',
};

/** The verdict line: the verdict and the sentence it rests on (built from fixed strings and numbers). */
export function verdictLine(c: Comparison): string {
  return `${VERDICT[c.verdict]} — ${escapeMarkdown(c.summary)}`;
}

const score = (s: KindSummary | undefined): string =>
  s ? `${pct(s.accuracy)} (${s.correct}/${s.total})` : '—';

/** Bounds shown within the possible range of a change (−100 … +100 pp). */
const clamp = (x: number): number => Math.max(-1, Math.min(1, x));

function cells(r: Row | undefined): string[] {
  if (!r || !r.paired) return ['0', '—', '—', '—', '—'];
  // A row too small to test has no interval worth reading.
  const interval =
    r.test && r.status !== 'too few items'
      ? `${pp(clamp(r.test.lower))} … ${pp(clamp(r.test.upper))}`
      : '—';
  return [`${r.paired} (${r.clusters})`, pct(r.baseline), pct(r.candidate), pp(r.delta), interval];
}

/**
 * The per-kind table: this run's own score, then on the paired items the
 * baseline's and the candidate's mean, the change, its interval (the two
 * one-sided bounds at this look's level) and the row's status.
 */
export function comparisonTable(
  c: Comparison,
  scores: { overall?: KindSummary; byKind: Record<string, KindSummary> },
): string[] {
  const kinds = [...new Set([...Object.keys(scores.byKind), ...c.kinds.map((k) => k.kind)])].sort();
  const byKind = new Map(c.kinds.map((k) => [k.kind, k]));
  const status = (r: Row | undefined) => (r ? STATUS[r.status] : '—');
  const lines = [
    `| Kind | Score | Paired (clusters) | Baseline | Candidate | Δ | ${level(2 * c.look.alpha)} interval | Status |`,
    '|---|---:|---:|---:|---:|---:|---|---|',
    `| **overall** | ${[score(scores.overall), ...cells(c.overall), status(c.overall)].join(' | ')} |`,
  ];
  for (const kind of kinds) {
    const r = byKind.get(kind);
    lines.push(`| ${kind} | ${[score(scores.byKind[kind]), ...cells(r), status(r)].join(' | ')} |`);
  }
  return lines;
}

/** What the numbers rest on: power, the intersection, exclusions, top-up, notes. */
export function comparisonDetails(c: Comparison): string[] {
  const lines: string[] = [];
  const o = c.overall;
  if (o?.test && c.verdict !== 'no-baseline') {
    lines.push(
      '',
      `**Power:** on ${o.paired} paired items this gate detects a drop of ${pp(o.test.mde).slice(1)} with 80% power` +
        (o.test.needed && c.verdict === 'inconclusive'
          ? `; about ${o.test.needed} more paired items would give 80% power to rule out a drop of ${pp(c.policy.minDrop).slice(1)} between equal models.`
          : '.'),
    );
  }
  const p = c.pairing;
  if (p) {
    const outside =
      p.candidateOnly || p.baselineOnly
        ? ` (${p.candidateOnly} only in this run, ${p.baselineOnly} only in the baseline: not compared)`
        : '';
    lines.push(
      '',
      `**Compared:** the ${p.intersection} items both runs hold${outside}; ${p.paired} paired, ` +
        `${p.excluded.length} excluded (${pct(p.excludedShare)}, allowed ${pct(c.policy.maxExcluded)}).` +
        (p.baselineOnlyKinds.length
          ? ` Kinds only in the baseline, not compared: ${p.baselineOnlyKinds.join(', ')}.`
          : ''),
    );
    if (p.excluded.length) {
      lines.push('', '<details><summary>Items excluded from pairing</summary>', '');
      const shown = p.excluded.slice(0, 50);
      for (const e of shown) lines.push(`- ${codeSpan(e.id)}: ${e.reason}`);
      if (p.excluded.length > shown.length)
        lines.push(`- … and ${p.excluded.length - shown.length} more (comparison in results.json)`);
      lines.push('', '</details>');
    }
  }
  if (c.topUp)
    lines.push(
      '',
      `**Top-up:** the first look was inconclusive, so ${c.topUp.added} paired item(s) the baseline ` +
        `had answered were added; this is look ${c.look.index} of ${c.look.of}, at α ${c.look.alpha.toFixed(4)}.`,
    );
  for (const note of c.notes) lines.push('', `<sub>Note: ${escapeMarkdown(note)}</sub>`);
  return lines;
}

/** The gate's settings, for the footer. */
export function policyLine(c: Comparison): string {
  const { policy, look } = c;
  return (
    `gate: ${policy.gate}, min drop ${pp(policy.minDrop).slice(1)}, α ${policy.alpha} one-sided` +
    `${look.of > 1 ? ` (look ${look.index} of ${look.of} at ${look.alpha.toFixed(4)})` : ''}` +
    `, Holm over overall + kinds; paired clustered difference by ${policy.clusterBy} (CR1, Agresti–Min, t)`
  );
}
