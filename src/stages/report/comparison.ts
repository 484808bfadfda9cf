import { level, pct, pp } from '../compare/describe.js';
import type { Comparison, Row } from '../../contracts/comparison.js';
import type { KindSummary, Summary } from '../../contracts/results.js';
import { codeSpan, escapeMarkdown } from './escape.js';
import { boundsText, hasBounds, statusText } from './moves.js';

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

/** The baseline in a few characters: its commit's short sha, else where it came from. */
function baselineName(c: Comparison): string {
  const b = c.baseline;
  if (!b) return 'none';
  return b.commit ? codeSpan(b.commit.slice(0, 7)) : escapeMarkdown(b.source);
}

/**
 * `33 paired`, or when only part of the baseline pairs, `17 of 150 paired (seed 0 here, 7 in the
 * baseline)`: the selections' difference, when the runs recorded theirs.
 */
function pairedOf(c: Comparison, paired: number): string {
  const p = c.pairing;
  if (!p?.baselineOnly) return `${paired} paired`;
  const of = p.intersection + p.baselineOnly;
  const why = p.selectionDiffers?.length
    ? ` (${escapeMarkdown(p.selectionDiffers.join('; '))})`
    : '';
  return `${paired} of ${of} baseline items paired${why}`;
}

/**
 * The report's first line: the verdict, the overall change with its bounds
 * (the one place the level is stated), the paired items and the baseline.
 * Without a baseline it says so, with this run's score.
 */
export function headline(
  c: Comparison,
  summary: Pick<Summary, 'accuracy' | 'correct' | 'total'>,
): string {
  const score = `**${pct(summary.accuracy)}** (${summary.correct}/${summary.total})`;
  if (c.verdict === 'no-baseline')
    return `${VERDICT[c.verdict]} — this run ${score}; nothing to compare with.`;
  if (c.verdict === 'baseline-unavailable') return `${verdictLine(c)} This run: ${score}.`;
  const o = c.overall;
  const baseline = `baseline ${baselineName(c)}`;
  if (!o?.paired) return `${VERDICT[c.verdict]} — no paired items · ${baseline}`;
  const change = hasBounds(o)
    ? `overall **${pp(o.delta)}** (${level(c.look.alpha)} bounds ${boundsText(o)})`
    : `overall **${pp(o.delta)}**, too few items to test`;
  return `${VERDICT[c.verdict]} — ${change} · ${pairedOf(c, o.paired)} · ${baseline}`;
}

/** The sentence a fail or an inconclusive verdict rests on (the headline says the rest). */
export function reasonLine(c: Comparison): string[] {
  return c.verdict === 'fail' || c.verdict === 'inconclusive'
    ? ['', escapeMarkdown(c.summary)]
    : [];
}

const score = (s: KindSummary | undefined): string =>
  s ? `${pct(s.accuracy)} (${s.correct}/${s.total})` : '—';

/** The best constant answer's score (summary.byKind[kind].chance), overall summed over kinds. */
function floors(byKind: Record<string, KindSummary>): {
  overall?: number;
  of: (k: string) => string;
} {
  const chances = Object.values(byKind).map((s) => s.chance);
  const known = chances.every((x) => x !== undefined) && chances.length > 0;
  const total = chances.reduce((n, x) => n + (x?.total ?? 0), 0);
  const correct = chances.reduce((n, x) => n + (x?.correct ?? 0), 0);
  return {
    ...(known && total ? { overall: correct / total } : {}),
    of: (k) => {
      const x = byKind[k]?.chance;
      return x ? pct(x.accuracy) : '—';
    },
  };
}

function cells(r: Row | undefined): string[] {
  if (!r || !r.paired) return ['0', '—', '—', '—', '—'];
  // A row too small to test has no bounds worth reading.
  const bounds = hasBounds(r) ? boundsText(r) : '—';
  return [`${r.paired} (${r.clusters})`, pct(r.baseline), pct(r.candidate), pp(r.delta), bounds];
}

/**
 * The per-kind table: this run's own score and the floor (what the best
 * constant answer scores on these items), then on the paired items the
 * baseline's and the candidate's mean, the change, its bounds and the mark
 * (moves.ts). A large drop the gate could not call says how many items would.
 */
export function comparisonTable(
  c: Comparison,
  scores: { overall?: KindSummary; byKind: Record<string, KindSummary> },
): string[] {
  const kinds = [...new Set([...Object.keys(scores.byKind), ...c.kinds.map((k) => k.kind)])].sort();
  const byKind = new Map(c.kinds.map((k) => [k.kind, k]));
  const floor = floors(scores.byKind);
  const status = (r: Row | undefined) => (r ? statusText(r, c) : '—');
  const lines = [
    '| Kind | Score | Floor | Paired (clusters) | Baseline | Candidate | Δ | Bounds | Status |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    `| **overall** | ${[score(scores.overall), floor.overall === undefined ? '—' : pct(floor.overall), ...cells(c.overall), status(c.overall)].join(' | ')} |`,
  ];
  for (const kind of kinds) {
    const r = byKind.get(kind);
    lines.push(
      `| ${kind} | ${[score(scores.byKind[kind]), floor.of(kind), ...cells(r), status(r)].join(' | ')} |`,
    );
  }
  return lines;
}

/**
 * What the numbers rest on: the baseline and the items compared, exclusions,
 * top-up, notes; the power when the verdict is not a fail (a fail needs none).
 */
export function comparisonDetails(c: Comparison): string[] {
  const lines: string[] = [];
  const o = c.overall;
  if (o?.test && (c.verdict === 'pass' || c.verdict === 'inconclusive')) {
    lines.push(
      '',
      `**Power:** on ${o.paired} paired items this gate detects a drop of ${pp(o.test.mde).slice(1)} with 80% power` +
        (o.test.needed && c.verdict === 'inconclusive'
          ? `; about ${o.test.needed} more paired items would give 80% power to rule out a drop of ${pp(c.policy.minDrop).slice(1)} between equal models.`
          : '.'),
    );
  }
  const p = c.pairing;
  const b = c.baseline;
  if (p && b) {
    const outside =
      p.candidateOnly || p.baselineOnly
        ? ` (${p.candidateOnly} only in this run, ${p.baselineOnly} only in the baseline: not compared)`
        : '';
    lines.push(
      '',
      `Compared with ${escapeMarkdown(b.model)}${b.revision ? ` @ ${codeSpan(b.revision)}` : ''} — ${escapeMarkdown(b.source)}: ` +
        `the ${p.intersection} items both runs hold${outside}; ${p.paired} paired, ` +
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

/**
 * The gate's settings and how its bounds are made, for the footer (the level
 * itself is stated once, in the headline).
 */
export function policyLine(c: Comparison): string {
  const { policy, look } = c;
  return (
    `gate ${policy.gate}, min drop ${pp(policy.minDrop).slice(1)}, α ${policy.alpha}` +
    `${look.of > 1 ? ` (look ${look.index} of ${look.of} at ${look.alpha.toFixed(4)})` : ''}` +
    ` with Holm over overall + kinds; bounds one-sided each, paired, clustered by ${policy.clusterBy} (CR1, Agresti–Min, t)`
  );
}
