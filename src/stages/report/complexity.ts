import { pct } from '../compare/describe.js';
import type { Results } from '../../contracts/results.js';
import { COMPLEXITY_BANDS } from '../score/complexity.js';

/**
 * Accuracy by complexity band (the items whose oracle carries a complexity): a model that holds
 * its score only on easy items shows here. Collapsed: it explains the score, the gate does not use it.
 */
export function complexitySection(results: Results): string[] {
  const bands = results.summary.byComplexity;
  if (!bands || !Object.keys(bands).length) return [];
  const cut = (i: number) => (i === 0 ? 0 : COMPLEXITY_BANDS[i - 1]!.below);
  const rows = COMPLEXITY_BANDS.flatMap(({ band, below }, i) => {
    const s = bands[band];
    if (!s) return [];
    const range = below === Infinity ? `≥ ${cut(i)}` : `${cut(i)}–${below}`;
    return [`| ${band} (${range}) | ${s.total} | ${pct(s.accuracy)} (${s.correct}/${s.total}) |`];
  });
  const measured = Object.values(bands).reduce((n, s) => n + s.total, 0);
  return [
    '',
    `<details><summary>By complexity: ${measured} item(s) with a measured complexity</summary>`,
    '',
    '| complexity (0–10) | items | accuracy |',
    '| --- | ---: | ---: |',
    ...rows,
    '',
    '</details>',
  ];
}
