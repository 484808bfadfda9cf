import type { Comparison } from '../../contracts/comparison.js';
import type { Results } from '../../contracts/results.js';
import type { Annotation } from '../../contracts/comparison.js';

/** One regressed item, as the `regressions` output lists it. */
export interface Regression {
  id: string;
  kind: string;
  file?: string;
  question?: string;
  oracle?: unknown;
  answer?: unknown;
  error?: string | null;
}

/** The regressed items (right in the baseline, wrong now), in this run's order. */
export function regressions(results: Results, comparison: Comparison): Regression[] {
  const byId = new Map(results.instances.map((r) => [r.id, r] as const));
  return (comparison.flipped?.lost ?? []).flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        kind: r.kind,
        ...(r.file ? { file: r.file } : {}),
        ...(r.question ? { question: r.question } : {}),
        oracle: r.oracle,
        ...(r.parsed !== undefined ? { answer: r.parsed } : {}),
        ...(r.error ? { error: r.error } : {}),
      },
    ];
  });
}

const json = (v: unknown): string => {
  try {
    return JSON.stringify(v)?.slice(0, 2000) ?? 'undefined';
  } catch {
    return String(v);
  }
};

function message(r: Regression): string {
  return [
    r.question ? `Question: ${r.question}` : undefined,
    `Oracle: ${json(r.oracle)}`,
    r.answer !== undefined ? `Answer: ${json(r.answer)}` : `No answer (${r.error ?? 'none'})`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * One annotation per regressed item on its instance file, when `pathOf` maps
 * the file (relative to the suite root) into the repository; items of a
 * regressed kind are failures, the others warnings.
 */
export function regressionAnnotations(
  results: Results,
  comparison: Comparison,
  pathOf: (file: string) => string | undefined,
): Annotation[] {
  const regressedKinds = new Set(
    comparison.kinds.filter((k) => k.status === 'regressed').map((k) => k.kind),
  );
  return regressions(results, comparison).flatMap((r) => {
    const path = r.file ? pathOf(r.file) : undefined;
    if (!path) return [];
    return [
      {
        path,
        start_line: 1,
        end_line: 1,
        annotation_level: regressedKinds.has(r.kind) ? ('failure' as const) : ('warning' as const),
        title: `${r.kind}: ${r.id} regressed (right in the baseline)`.slice(0, 255),
        message: message(r),
      },
    ];
  });
}
