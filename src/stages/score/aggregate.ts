import type { InstanceRecord, KindSummary, Summary } from '../../contracts/results.js';
import { chanceLevels } from './chance.js';
import { byComplexity, variantComplexity } from './complexity.js';
import type { ScoringRules } from './verdict.js';
import { FAMILIES } from '../../families/registry.js';

/** Wilson score interval at 95%: honest for small n and for 0% / 100%. */
export function wilson(correct: number, total: number, z = 1.959964): [number, number] {
  if (total === 0) return [0, 0];
  const p = correct / total;
  const denom = 1 + (z * z) / total;
  const centre = (p + (z * z) / (2 * total)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / total + (z * z) / (4 * total * total))) / denom;
  return [round(Math.max(0, centre - half)), round(Math.min(1, centre + half))];
}

function kindSummary(records: InstanceRecord[]): KindSummary {
  const correct = records.filter((r) => r.correct).length;
  return {
    total: records.length,
    correct,
    accuracy: records.length ? round(correct / records.length) : 0,
    ci95: wilson(correct, records.length),
  };
}

/**
 * Per-kind and overall accuracy over scored instances, each kind's floor (the
 * best constant answer under `rules`, the run's scoring rules), plus error and
 * token totals.
 */
export function summarize(records: InstanceRecord[], rules: ScoringRules = {}): Summary {
  const scored = records.filter((r) => r.scored);
  const chance = chanceLevels(scored, rules);
  const byKind: Record<string, KindSummary> = {};
  for (const kind of [...new Set(scored.map((r) => r.kind))].sort()) {
    const level = chance[kind];
    byKind[kind] = {
      ...kindSummary(scored.filter((r) => r.kind === kind)),
      ...(level ? { chance: level } : {}),
    };
  }
  const errors: Record<string, number> = {};
  for (const r of records) if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
  const overall = kindSummary(scored);
  // Each family's own metrics beside the pass rate (the world-model study's; Comet's sub-scores).
  const families: Record<string, Record<string, unknown>> = {};
  for (const family of FAMILIES) {
    const metrics = family.summaryKey && family.summarize?.(scored);
    if (metrics) families[family.summaryKey!] = metrics as Record<string, unknown>;
  }
  const bands = byComplexity(scored, kindSummary);
  const variants = variantComplexity(scored);
  return {
    ...overall,
    ...families,
    byKind,
    ...(bands ? { byComplexity: bands } : {}),
    ...(variants ? { variantComplexity: variants } : {}),
    unscored: records.length - scored.length,
    errors,
    tokensIn: sum(records, (r) => r.tokensIn),
    tokensOut: sum(records, (r) => r.tokensOut),
    retries: sum(records, (r) => r.retries),
  };
}

function sum(records: InstanceRecord[], f: (r: InstanceRecord) => number): number {
  return records.reduce((acc, r) => acc + f(r), 0);
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
